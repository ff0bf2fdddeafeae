/**
 * Idempotent saves over real HTTP against a real SQLite store: a save retried with
 * `input.idempotencyKey` answers the same id and edit token and stores nothing; the same key with
 * other input is IDEMPOTENCY_KEY_REUSED naming the key; ten saves with one key at once store one
 * analysis; the token of a retry updates the analysis; a bad key is BAD_USER_INPUT naming the
 * field and the value; a deleted analysis is NOT_FOUND on retry; a key past its window (the
 * store's clock moved, nothing sleeps) is a new save. The `Idempotency-Key` header: a retried
 * request answers each of its saves (aliases, batch operations) with its own first result; a
 * Structured Field string and the bare text are one key; the input's key overrides it; a bad
 * header fails the save alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../../src/store/index.js';
import { recordingLogger } from '../../../support/store-fixtures.js';
import { type GqlResponse, startTestServer, type TestServer } from '../../../support/test-server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { RATE_LIMIT_MUTATIONS: '0' } });
});
afterAll(async () => {
  await t?.close();
});

const SAVE = `mutation($input: SaveAnalysisInput!) {
  saveAnalysis(input: $input) { editToken analysis { id title version } }
}`;
const seed = { piece: 'KING', from: ['e4'], to: ['a1', 'h8'] };

interface Saved {
  editToken: string;
  analysis: { id: string; title: string; version: number };
}

function saved(res: GqlResponse): Saved {
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  return res.body.data.saveAnalysis as Saved;
}

/** How many analyses the server holds. */
async function count(server: TestServer = t): Promise<number> {
  const res = await server.gql('{ analyses(first: 0) { totalCount } }');
  return res.body.data.analyses.totalCount as number;
}

/** POSTs a JSON body (a batch when an array) with extra headers; the parsed answer. */
async function post(body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const res = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return res.json();
}

describe('saveAnalysis with input.idempotencyKey', () => {
  it('answers a retry with the same id and token, and stores nothing new', async () => {
    const input = { title: 'retried', queries: [seed], idempotencyKey: '0d9c6a52-7f0b-4c1e-9a57-4b7b3d4f0001' };
    const first = saved(await t.gql(SAVE, { input }));
    const before = await count();
    const retry = saved(await t.gql(SAVE, { input }));
    expect(retry).toEqual(first);
    expect(await count()).toBe(before);
  });

  it('refuses the same key with other input, naming the key, and stores nothing', async () => {
    const key = 'reused-key-0001';
    saved(await t.gql(SAVE, { input: { title: 'one', queries: [seed], idempotencyKey: key } }));
    const before = await count();
    const res = await t.gql(SAVE, { input: { title: 'two', queries: [seed], idempotencyKey: key } });
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    expect(res.body.errors?.[0]).toMatchObject({
      path: ['saveAnalysis'],
      extensions: { code: 'IDEMPOTENCY_KEY_REUSED', idempotencyKey: key },
    });
    expect(res.body.errors?.[0].message).toContain(`"${key}"`);
    expect(await count()).toBe(before);
  });

  it('stores one analysis for ten saves with one key at once', async () => {
    const before = await count();
    const input = { title: 'at once', queries: [seed], idempotencyKey: 'at-once-0001' };
    const answers = (await Promise.all(Array.from({ length: 10 }, () => t.gql(SAVE, { input })))).map(saved);
    expect(new Set(answers.map((a) => a.analysis.id)).size).toBe(1);
    expect(new Set(answers.map((a) => a.editToken)).size).toBe(1);
    expect(await count()).toBe(before + 1);
  });

  it('gives a retry a token that updates the analysis', async () => {
    const input = { title: 'to update', queries: [seed], idempotencyKey: 'update-me-0001' };
    saved(await t.gql(SAVE, { input }));
    const retry = saved(await t.gql(SAVE, { input }));
    const res = await t.gql(
      'mutation($id: ID!, $token: String!) { updateAnalysis(id: $id, editToken: $token, input: { title: "updated" }) { title version } }',
      { id: retry.analysis.id, token: retry.editToken },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.updateAnalysis).toEqual({ title: 'updated', version: 2 });
    // A later retry answers the analysis as it is now.
    expect(saved(await t.gql(SAVE, { input })).analysis).toMatchObject({ title: 'updated', version: 2 });
  });

  it('refuses a bad key as BAD_USER_INPUT naming the field and the value, before storing anything', async () => {
    const before = await count();
    for (const key of ['', 'x'.repeat(256), 'clé', 'line\nbreak', 'tab\there']) {
      const res = await t.gql(SAVE, { input: { title: 'bad key', queries: [seed], idempotencyKey: key } });
      expect(res.body.errors?.[0]).toMatchObject({
        path: ['saveAnalysis'],
        extensions: { code: 'BAD_USER_INPUT', argument: 'input.idempotencyKey' },
      });
      expect(res.body.errors?.[0].message).toMatch(/^input\.idempotencyKey: ".*/);
      expect(res.body.errors?.[0].message).toContain(JSON.stringify(key).slice(0, 40));
    }
    // 255 printable characters, spaces included, are a key.
    saved(await t.gql(SAVE, { input: { title: 'long key', queries: [seed], idempotencyKey: ` ~${'k'.repeat(253)}` } }));
    expect(await count()).toBe(before + 1);
  });

  it('says NOT_FOUND when the analysis of a retried save was deleted since', async () => {
    const input = { title: 'deleted', queries: [seed], idempotencyKey: 'deleted-0001' };
    const first = saved(await t.gql(SAVE, { input }));
    const deleted = await t.gql('mutation($id: ID!, $token: String!) { deleteAnalysis(id: $id, editToken: $token) }', {
      id: first.analysis.id,
      token: first.editToken,
    });
    expect(deleted.body.data.deleteAnalysis).toBe(true);
    const res = await t.gql(SAVE, { input });
    expect(res.body.errors?.[0]).toMatchObject({
      extensions: { code: 'NOT_FOUND', idempotencyKey: 'deleted-0001', analysisId: first.analysis.id },
    });
    expect(res.body.errors?.[0].message).toMatch(/was deleted since/);
  });
});

describe('saveAnalysis with the Idempotency-Key header', () => {
  const TWO_SAVES = `mutation($a: SaveAnalysisInput!, $b: SaveAnalysisInput!) {
    a: saveAnalysis(input: $a) { editToken analysis { id title } }
    b: saveAnalysis(input: $b) { editToken analysis { id title } }
  }`;

  it('answers each save of a retried request (aliases) with its own first result', async () => {
    const body = {
      query: TWO_SAVES,
      variables: { a: { title: 'alias a', queries: [seed] }, b: { title: 'alias a', queries: [seed] } },
    };
    const headers = { 'idempotency-key': '"6f1c3c1e-aliases"' };
    const first = await post(body, headers);
    expect(first.errors).toBeUndefined();
    // Two saves of the same input in one request are two saves, each under its own place.
    expect(first.data.a.analysis.id).not.toBe(first.data.b.analysis.id);
    const before = await count();
    const retry = await post(body, headers);
    expect(retry).toEqual(first);
    expect(await count()).toBe(before);
  });

  it('answers each operation of a retried batch with its own first result', async () => {
    const op = (title: string) => ({ query: SAVE, variables: { input: { title, queries: [seed] } } });
    const batch = [op('batch 0'), op('batch 1'), op('batch 1')];
    const headers = { 'Idempotency-Key': 'batch-key-0001' };
    const first = await post(batch, headers);
    const ids = first.map((answer: any) => answer.data.saveAnalysis.analysis.id);
    expect(new Set(ids).size).toBe(3);
    const before = await count();
    expect(await post(batch, headers)).toEqual(first);
    expect(await count()).toBe(before);
  });

  it('reads a Structured Field string and the bare text as one key, and lets the input key override it', async () => {
    const input = { title: 'header forms', queries: [seed] };
    const quoted = saved(await t.gql(SAVE, { input }, { 'idempotency-key': '"same \\"key\\""' }));
    const bare = saved(await t.gql(SAVE, { input }, { 'idempotency-key': 'same "key"' }));
    expect(bare).toEqual(quoted);
    const overridden = saved(
      await t.gql(SAVE, { input: { ...input, idempotencyKey: 'own-key-0001' } }, { 'idempotency-key': 'same "key"' }),
    );
    expect(overridden.analysis.id).not.toBe(quoted.analysis.id);
    // The header's key and an input key of the same text are different keys.
    const asInput = saved(await t.gql(SAVE, { input: { ...input, idempotencyKey: 'same "key"' } }));
    expect(asInput.analysis.id).not.toBe(quoted.analysis.id);
  });

  it('fails only the saves of a request whose header is bad, naming the header and the value', async () => {
    const before = await count();
    const save = { query: SAVE, variables: { input: { title: 'bad header', queries: [seed] } } };
    const question = { query: '{ shortestPaths(query: { piece: KING, from: ["e4"], to: ["e6"] }) { distance } }' };
    const [saving, asking] = await post([save, question], { 'idempotency-key': '""' });
    expect(saving.errors?.[0]).toMatchObject({
      path: ['saveAnalysis'],
      extensions: { code: 'BAD_USER_INPUT', argument: 'Idempotency-Key header' },
    });
    expect(saving.errors?.[0].message).toBe(
      'Idempotency-Key header: "\\"\\"" is empty: an idempotency key has 1 to 255 printable ASCII characters',
    );
    // The other operation is answered.
    expect(asking).toEqual({ data: { shortestPaths: { distance: 2 } } });
    expect(await count()).toBe(before);
  });
});

describe('the idempotency window', () => {
  it('makes a new save of a key once its window has passed', async () => {
    let clock = new Date('2026-11-25T00:00:00.000Z');
    const server = await startTestServer({
      env: { RATE_LIMIT_MUTATIONS: '0', IDEMPOTENCY_WINDOW_HOURS: '2' },
      deps: {
        openStore: (options) => openStore(options, { logger: recordingLogger(), idempotencyClock: () => clock }),
      },
    });
    try {
      const input = { title: 'windowed', queries: [seed], idempotencyKey: 'window-0001' };
      const first = saved(await server.gql(SAVE, { input }));
      clock = new Date(clock.getTime() + 2 * 3_600_000 - 1);
      expect(saved(await server.gql(SAVE, { input }))).toEqual(first);
      clock = new Date(clock.getTime() + 1);
      const second = saved(await server.gql(SAVE, { input }));
      expect(second.analysis.id).not.toBe(first.analysis.id);
      expect(await count(server)).toBe(2);
    } finally {
      await server.close();
    }
  });
});
