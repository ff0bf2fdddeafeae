/**
 * HTTP batches (a JSON array body, as Apollo Client's BatchHttpLink sends): answered in order,
 * one answer per operation, each with its own errors, HTTP 200 once the batch ran (whatever its
 * operations' own errors); and one request for every limit: at most
 * MAX_BATCH_OPERATIONS operations, the operations' costs added up against MAX_COST, one engine
 * budget, one answer size, identical questions solved once across the operations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ database: false });
});
afterAll(async () => {
  await t?.close();
});

type Answer = { data?: any; errors?: { message: string; path?: unknown[]; extensions?: Record<string, unknown> }[] };

async function batch(server: TestServer, operations: unknown[]): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(operations),
  });
  return { status: res.status, body: await res.json() };
}

const question = (from: string, to: string) => ({
  query: 'query($q: PathQuery!) { shortestPaths(query: $q) { distance } }',
  variables: { q: { piece: 'KING', from: [from], to: [to] } },
});

describe('a batch', () => {
  it('is answered in order, each operation with its own data and errors', async () => {
    const { status, body } = await batch(t, [
      question('a1', 'h8'),
      question('a1', 'z9'),
      { query: '{ __typename }' },
      { query: '{ nope }' },
    ]);
    expect(status).toBe(200);
    const answers = body as Answer[];
    expect(answers).toHaveLength(4);
    expect(answers[0]).toEqual({ data: { shortestPaths: { distance: 7 } } });
    expect(answers[1].data).toEqual({ shortestPaths: null });
    expect(answers[1].errors?.[0]).toMatchObject({ path: ['shortestPaths'], extensions: { code: 'BAD_USER_INPUT' } });
    expect(answers[2]).toEqual({ data: { __typename: 'Query' } });
    expect(answers[3].errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('refused whole (empty, or not made of operations) keeps its 400', async () => {
    for (const operations of [[], [1], [{ query: '{ __typename }' }, 5]]) {
      const { status, body } = await batch(t, operations);
      expect(status, JSON.stringify(operations)).toBe(400);
      expect(body.errors[0].extensions.code, JSON.stringify(operations)).toBe('BAD_REQUEST');
    }
  });

  it('solves a question asked by several of its operations once', async () => {
    const before = await t.metric('chess_paths_engine_solves_total');
    const q = question('b2', 'g7');
    const { body } = await batch(t, [q, q, q]);
    expect((body as Answer[]).map((a) => a.data.shortestPaths.distance)).toEqual([5, 5, 5]);
    expect((await t.metric('chess_paths_engine_solves_total')) - before).toBe(1);
  });

  it('holds at most MAX_BATCH_OPERATIONS operations', async () => {
    const small = await startTestServer({ database: false, env: { MAX_BATCH_OPERATIONS: '3' } });
    try {
      expect((await batch(small, [question('a1', 'b2'), question('a1', 'b2'), question('a1', 'b2')])).status).toBe(200);
      const over = await batch(
        small,
        Array.from({ length: 4 }, () => question('a1', 'b2')),
      );
      expect(over.status).toBe(400);
      expect(over.body.errors[0]).toEqual({
        message: 'A batch of 4 operations is over the limit of 3 (MAX_BATCH_OPERATIONS)',
        extensions: { code: 'BAD_REQUEST', limit: 'MAX_BATCH_OPERATIONS', max: 3 },
      });
    } finally {
      await small.close();
    }
  });

  it('adds its operations’ costs up against MAX_COST', async () => {
    const cheap = await startTestServer({ database: false, env: { MAX_COST: '20' } });
    try {
      const one = question('a1', 'h8');
      // Each costs 5 (shortestPaths 2 + 1.5 x 1 leaf, rounded up): alone, any one fits.
      const fits = await batch(cheap, [one, one, one]);
      expect((fits.body as Answer[]).every((a) => a.errors === undefined)).toBe(true);
      const over = await batch(
        cheap,
        Array.from({ length: 6 }, () => one),
      );
      expect(over.status).toBe(200); // the batch ran; the refused operations say so themselves
      const answers = over.body as Answer[];
      const refused = answers.filter((a) => a.errors?.[0]?.extensions?.limit === 'MAX_COST');
      expect(refused.length).toBeGreaterThan(0);
      expect(refused[0].errors?.[0].message).toMatch(/^Batch cost of \d+ is over the limit of 20 \(MAX_COST\)$/);
      // What ran stayed within the limit.
      const ran = answers.filter((a) => a.data?.shortestPaths);
      expect(ran.length).toBeLessThan(6);
    } finally {
      await cheap.close();
    }
  });

  it('shares one engine budget between its operations', async () => {
    const tight = await startTestServer({ database: false, env: { ENGINE_BUDGET_MS: '1', MAX_BOARD_SIDE: '256' } });
    try {
      // Each operation alone is a few ms of engine work on a fresh 256 x 256 board.
      const big = (i: number) => ({
        query: 'query($q: PathQuery!) { shortestPaths(query: $q) { distance } }',
        variables: { q: { piece: 'KNIGHT', from: [`a${i + 1}`], to: ['iv256'], board: { files: 256, ranks: 256 } } },
      });
      const { status, body } = await batch(
        tight,
        Array.from({ length: 8 }, (_, i) => big(i)),
      );
      expect(status).toBe(200);
      const codes = (body as Answer[]).flatMap((a) => (a.errors ?? []).map((e) => e.extensions?.code));
      expect(codes).toContain('ENGINE_BUDGET_EXCEEDED');
    } finally {
      await tight.close();
    }
  });
});
