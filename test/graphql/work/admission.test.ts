/**
 * Admission control over real HTTP (src/graphql/work/admission.ts, wired in apollo.ts): an operation
 * whose estimated work is over HEAVY_WORK must hold one of HEAVY_REQUESTS places; past
 * ADMISSION_QUEUE waiting requests or ADMISSION_TIMEOUT_MS it is refused with HTTP 503, a
 * Retry-After header, code OVERLOADED and no data, before any of it runs. Light requests (the
 * seed example, `{ __typename }`, even 500 small questions) never wait there.
 *
 * The heavy request: 300 distinct 64 x 64 king mazes (distance up to ~2,000), solved on the
 * worker pool with no engine budget, with the memo and the response cache off so every request
 * really solves; it takes hundreds of milliseconds. The tests watch the server's gate (its class)
 * and hold a place it gave until they let it go, so what a request finds at the gate never
 * depends on how fast the heavy one runs.
 */

import { squareName } from '@chess-paths/engine';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mazeQuery } from '../../../packages/engine/test/support/maze.js';
import { HEAVY_WORK } from '../../../src/graphql/limits/cost.js';
import { Admission } from '../../../src/graphql/work/admission.js';
import { SEED_QUERY, startTestServer, type TestServer } from '../../support/test-server.js';

const BATCH = 'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { distance } }';
const SEED = `{ shortestPaths(query: ${SEED_QUERY}) { distance } }`;

/** `n` distinct maze questions starting at `from` (wrapping within the 1,280). */
const mazes = (n: number, from = 0) => Array.from({ length: n }, (_, i) => mazeQuery((from + i) % 1280));

/** `n` distinct 8 x 8 questions: light whatever their number (500 x 64 squares <= HEAVY_WORK). */
const small = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    piece: (['KING', 'KNIGHT', 'QUEEN', 'ROOK', 'BISHOP'] as const)[Math.floor(i / 64) % 5],
    from: [squareName(i % 64, { files: 8, ranks: 8 })],
    to: [squareName((i + 1 + Math.floor(i / 64)) % 64, { files: 8, ranks: 8 })],
  }));

interface Reply {
  label: string;
  status: number;
  retryAfter: string | null;
  body: { data?: any; errors?: { message: string; extensions?: Record<string, any> }[] };
  /** When the response ended (performance.now()). */
  at: number;
  /** Milliseconds the request took. */
  ms: number;
}

const finished: string[] = [];

/** POSTs a GraphQL request, keeping the status, the Retry-After header and when it ended. */
async function post(
  server: TestServer,
  label: string,
  query: string,
  variables?: Record<string, unknown>,
): Promise<Reply> {
  const started = performance.now();
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as Reply['body'];
  const end = performance.now();
  finished.push(label);
  return {
    label,
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    body,
    at: end,
    ms: end - started,
  };
}

function expectAnswered(reply: Reply, count: number): void {
  expect(reply.status, reply.label).toBe(200);
  expect(reply.body.errors, reply.label).toBeUndefined();
  expect(reply.body.data.shortestPathsBatch, reply.label).toHaveLength(count);
}

function expectOverloaded(reply: Reply, why: RegExp): void {
  expect(reply.status, reply.label).toBe(503);
  expect(reply.retryAfter, reply.label).toMatch(/^[1-9][0-9]*$/);
  expect(reply.body.data, reply.label).toBeUndefined();
  expect(reply.body.errors, reply.label).toHaveLength(1);
  expect(reply.body.errors![0].extensions?.code).toBe('OVERLOADED');
  expect(reply.body.errors![0].message).toMatch(/HEAVY_REQUESTS 1/);
  expect(reply.body.errors![0].message).toMatch(why);
  expect(JSON.stringify(reply.body)).not.toMatch(/stacktrace/);
}

/**
 * Watches the server's admission gate (through its class, so the server's own instance): what it
 * decided, in order (`at once`/`after waiting`: a place given; `refused`; `released`: the server
 * gave a place back), and a hold: while held, places the server gives back stay taken until
 * `letGo()`, so a heavy request keeps its place as long as the test needs, however fast it ran.
 */
function watchAdmission() {
  const events: string[] = [];
  const kept: (() => void)[] = [];
  let holding = false;
  const acquire = Admission.prototype.acquire;
  vi.spyOn(Admission.prototype, 'acquire').mockImplementation(async function (this: Admission) {
    const waits = this.inFlight > 0; // HEAVY_REQUESTS is 1 in every server here
    let release: () => void;
    try {
      release = await acquire.call(this);
    } catch (err) {
      events.push('refused');
      throw err;
    }
    events.push(waits ? 'after waiting' : 'at once');
    return () => {
      events.push('released');
      if (holding) kept.push(release);
      else release();
    };
  });
  return {
    events,
    hold() {
      holding = true;
    },
    letGo() {
      holding = false;
      for (const release of kept.splice(0)) release();
    },
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

const BASE = { ENGINE_BUDGET_MS: '0', HEAVY_REQUESTS: '1', RESULT_MEMO_SIZE: '0', RESPONSE_CACHE_SIZE: '0' };

describe('one heavy place, no queue (HEAVY_REQUESTS=1, ADMISSION_QUEUE=0)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ database: false, env: { ...BASE, ADMISSION_QUEUE: '0' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers one of two concurrent heavy requests and refuses the other with 503; light requests are answered meanwhile', async () => {
    // Check the premise: 300 maze questions are heavy, 500 small ones are not.
    expect(300 * 64 * 64).toBeGreaterThan(HEAVY_WORK);
    expect(500 * 64).toBeLessThanOrEqual(HEAVY_WORK);
    const gate = watchAdmission();
    gate.hold(); // the answered one keeps its place until the light requests below are done
    const solves = await t.metric('chess_paths_engine_solves_total');
    const [a, b] = await Promise.all([
      post(t, 'heavy a', BATCH, { q: mazes(300, 0) }),
      post(t, 'heavy b', BATCH, { q: mazes(300, 500) }),
    ]);
    const [refused, answered] = a.status === 503 ? [a, b] : [b, a];
    expectOverloaded(refused, /queue is full/);
    expectAnswered(answered, 300);
    expect(answered.body.data.shortestPathsBatch.every((r: { distance: number }) => r.distance > 500)).toBe(true);
    // Refused before any of it ran: only the answered one's 300 questions were solved.
    expect((await t.metric('chess_paths_engine_solves_total')) - solves).toBe(300);
    // (The refusal and the answer's release may come in either order: the place is held anyway.)
    await vi.waitFor(() => expect([...gate.events].sort()).toEqual(['at once', 'refused', 'released']));

    // The place is still taken; light requests never ask for it and are answered.
    const typename = await post(t, 'typename', '{ __typename }');
    expect(typename.status).toBe(200);
    expect(typename.body).toEqual({ data: { __typename: 'Query' } });
    const seed = await post(t, 'seed', SEED);
    expect(seed.status).toBe(200);
    expect(seed.body).toEqual({ data: { shortestPaths: { distance: 4 } } });
    const many = await post(t, '500 small', BATCH, { q: small(500) });
    expectAnswered(many, 500);
    // Sixteen 64 x 64 questions are exactly HEAVY_WORK: light. Seventeen are heavy, and refused.
    const [sixteen, seventeen] = await Promise.all([
      post(t, '16 large', BATCH, { q: mazes(16, 1000) }),
      post(t, '17 large', BATCH, { q: mazes(17, 1100) }),
    ]);
    expectOverloaded(seventeen, /queue is full/);
    expectAnswered(sixteen, 16);
    expect(gate.events.slice(3)).toEqual(['refused']);
    expect(await t.metric('chess_paths_graphql_errors_total', { code: 'OVERLOADED' })).toBe(2);

    // The place is given back: a heavy request now is answered.
    gate.letGo();
    expectAnswered(await post(t, 'heavy c', BATCH, { q: mazes(300, 200) }), 300);
    await vi.waitFor(() => expect(gate.events.slice(4)).toEqual(['at once', 'released']));
  });

  it('counts each refused request once in chess_paths_graphql_errors_total', async () => {
    const gate = watchAdmission();
    gate.hold(); // the first keeps its place until both are answered
    const before = await t.metric('chess_paths_graphql_errors_total', { code: 'OVERLOADED' });
    const replies = await Promise.all([
      post(t, 'heavy x', BATCH, { q: mazes(300, 0) }),
      post(t, 'heavy y', BATCH, { q: mazes(300, 300) }),
    ]);
    gate.letGo();
    const refusals = replies.filter((r) => r.status === 503).length;
    expect(refusals).toBe(1);
    expect(await t.metric('chess_paths_graphql_errors_total', { code: 'OVERLOADED' })).toBe(before + refusals);
  });
});

describe('one heavy place and one waiting place (ADMISSION_QUEUE=1)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      database: false,
      // The waiting request may wait as long as the test holds the place: no timeout here.
      env: { ...BASE, ADMISSION_QUEUE: '1', ADMISSION_TIMEOUT_MS: '600000' },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the second heavy request waits and is answered after the first; a third is refused; light ones never wait', async () => {
    finished.length = 0;
    const gate = watchAdmission();
    gate.hold(); // the first keeps its place until the test lets it go
    const a = post(t, 'heavy a', BATCH, { q: mazes(300, 0) });
    const b = post(t, 'heavy b', BATCH, { q: mazes(300, 500) });
    const c = post(t, 'heavy c', BATCH, { q: mazes(300, 900) });
    // One runs, one waits, the third finds the queue full.
    const refused = await Promise.race([a, b, c]);
    expectOverloaded(refused, /queue is full/);
    // The first is answered; its place is still held, so the second still waits.
    await vi.waitFor(() => expect([...gate.events].sort()).toEqual(['at once', 'refused', 'released']), {
      timeout: 30_000,
    });
    // Light requests are answered while one heavy request holds the place and another waits.
    const seed = await post(t, 'seed', SEED);
    expect(seed.status).toBe(200);
    expect(seed.body.data.shortestPaths.distance).toBe(4);
    const typename = await post(t, 'typename', '{ __typename }');
    expect(typename.status).toBe(200);
    expect(gate.events).toHaveLength(3);

    gate.letGo();
    const [ra, rb, rc] = await Promise.all([a, b, c]);
    const answered = [ra, rb, rc].filter((r) => r !== refused).sort((x, y) => x.at - y.at);
    answered.forEach((r) => {
      expectAnswered(r, 300);
    });
    // One after the other: the second got the place only once the first gave it back.
    await vi.waitFor(() => expect(gate.events.slice(3)).toEqual(['after waiting', 'released']));
    const second = answered[1];
    expect(finished.indexOf('seed')).toBeLessThan(finished.indexOf(second.label));
    expect(finished.indexOf('typename')).toBeLessThan(finished.indexOf(second.label));
  });
});

describe('a short admission timeout (ADMISSION_QUEUE=1, ADMISSION_TIMEOUT_MS=60)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ database: false, env: { ...BASE, ADMISSION_QUEUE: '1', ADMISSION_TIMEOUT_MS: '60' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the waiting request is refused with 503 once the wait runs out, and the queue place is free again', async () => {
    const gate = watchAdmission();
    gate.hold(); // the answered one keeps its place: the waiting ones can only time out
    const a = post(t, 'heavy a', BATCH, { q: mazes(300, 0) });
    const b = post(t, 'heavy b', BATCH, { q: mazes(300, 500) });
    const refused = await Promise.race([a, b]);
    expectOverloaded(refused, /within 60 ms/);
    expect(refused.ms).toBeGreaterThanOrEqual(60);
    // The timed-out request left the queue: the next one may wait (and times out in turn).
    const again = await post(t, 'heavy d', BATCH, { q: mazes(100, 1100) });
    expectOverloaded(again, /within 60 ms/);
    expect(again.ms).toBeGreaterThanOrEqual(60);
    const answered = refused === (await a) ? await b : await a;
    expectAnswered(answered, 300);
    // Once the place is free, a heavy request passes.
    gate.letGo();
    expectAnswered(await post(t, 'heavy e', BATCH, { q: mazes(200, 900) }), 200);
    expect(gate.events.filter((e) => e === 'refused')).toHaveLength(2);
  });
});

describe('a client that never reads its answer (HEAVY_REQUESTS=1, ADMISSION_QUEUE=1)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      database: false,
      env: { HEAVY_REQUESTS: '1', ADMISSION_QUEUE: '1', ENGINE_BUDGET_MS: '0', RESULT_MEMO_SIZE: '0' },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('does not keep the heavy place: it is given back once the answer is made, not once it is read', async () => {
    // A heavy question with an answer of megabytes (distance maps), sent from a socket that never
    // reads: the answer can never be written out in full.
    const query = 'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { distances } }';
    const body = JSON.stringify({ query, variables: { q: mazes(300, 300) } });
    const { connect } = await import('node:net');
    const url = new URL(t.url);
    const gate = watchAdmission();
    const socket = connect(Number(url.port), url.hostname);
    socket.pause();
    socket.write(
      `POST /graphql HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    try {
      // The stalled request takes the place, makes its answer, and gives the place back.
      await vi.waitFor(() => expect(gate.events).toEqual(['at once', 'released']), { timeout: 30_000, interval: 20 });
      const next = await post(t, 'heavy after a stalled one', BATCH, { q: mazes(200, 700) });
      expectAnswered(next, 200);
      // It found the place free: no wait behind the unread answer.
      await vi.waitFor(() => expect(gate.events).toEqual(['at once', 'released', 'at once', 'released']));
    } finally {
      socket.destroy();
    }
  });
});
