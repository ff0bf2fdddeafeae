/**
 * Three replicas of the real entry point on one fresh PostgreSQL database, behind a real nginx
 * load balancer (round-robin, `test/support/postgres-cluster.ts`):
 *
 * - they start at the same moment, so their migrations race: each migration is applied once;
 * - nginx spreads requests over all three;
 * - a result asked twice on replica A (a cheap result is written on its question's second ask) is
 *   `cached: true` on B and C once A's cache writer has stored it (its row is in PostgreSQL) and
 *   their filters of written keys have read its key (refreshed every second), and B does not
 *   solve it;
 * - an edit token works on any replica: saved on A, updated on B, a wrong token refused on C;
 * - the mutation rate limit is shared: RATE_LIMIT_MUTATIONS=5 mutations from one address spread
 *   over the three replicas exhaust it on all of them;
 * - one replica is SIGKILLed in the middle of a burst of saves sent through nginx: every save
 *   answered 200 with an id is there afterwards with exactly its title, notes and queries, none is
 *   stored twice (nginx never resends a POST), and saves sent after the kill all succeed.
 *
 * Clients send from distinct loopback addresses; nginx forwards each one in X-Forwarded-For and
 * the replicas trust one proxy (TRUST_PROXY_HOPS=1), so the per-client rate limit sees distinct
 * clients through the balancer and on direct requests alike. Skipped with a message when nginx or
 * PostgreSQL is missing, except in CI (`CI` set).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, ROOT, startChildServer } from './support/child-server.js';
import { NGINX } from './support/nginx.js';
import { createTestDatabase, queryPostgres, skipPostgres, type TestDatabase } from './support/postgres.js';
import { gql, type HttpAnswer, type LoadBalancer, send, startLoadBalancer } from './support/postgres-cluster.js';

const inCi = Boolean(process.env.CI);
const haveNginx = existsSync(NGINX);
// postgres.ts warns by itself when PostgreSQL does not answer.
if (!haveNginx && !inCi) console.warn(`Skipping the multi-replica test: ${NGINX} is missing (apt-get install nginx).`);

const LIMIT = 5;
const BURST_SAVES = 80;
const BURST_CLIENTS = 8;
const KILL_AFTER_ACKS = 20;

const SAVE = 'mutation($i: SaveAnalysisInput!) { saveAnalysis(input: $i) { editToken analysis { id } } }';
const UPDATE =
  'mutation($id: ID!, $t: String!, $i: UpdateAnalysisInput!) { updateAnalysis(id: $id, editToken: $t, input: $i) { id title version } }';
const READ =
  'query($id: ID!) { analysis(id: $id) { title notes results { piece mask sources { squares } targets { squares } } } }';
const BATCH = 'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { key distance cached } }';

interface Query {
  piece: string;
  from: string[];
  to: string[];
  mask: string;
}
interface Content {
  title: string;
  notes: string | null;
  queries: Query[];
}

const PIECES = ['KING', 'QUEEN', 'ROOK', 'BISHOP', 'KNIGHT'];
const sq = (i: number) => `${'abcdefgh'[i % 8]}${Math.floor(i / 8) + 1}`;
/** A random 8 x 8 question, its own two squares passable, about 80 % of the others. */
function randomQuery(): Query {
  const from = Math.floor(Math.random() * 64);
  const to = Math.floor(Math.random() * 64);
  let mask = 0n;
  for (let i = 0; i < 64; i++) if (Math.random() < 0.8 || i === from || i === to) mask |= 1n << BigInt(i);
  const piece = PIECES[Math.floor(Math.random() * PIECES.length)];
  return { piece, from: [sq(from)], to: [sq(to)], mask: `0x${mask.toString(16).padStart(16, '0')}` };
}
function randomContent(title: string): Content {
  const r = Math.random();
  const notes = r < 0.3 ? null : r < 0.6 ? `notes ✓ ${title} ${'é'.repeat(Math.floor(r * 40))}` : 'x'.repeat(3000);
  return { title, notes, queries: Array.from({ length: 1 + Math.floor(Math.random() * 3) }, randomQuery) };
}

const data = (answer: HttpAnswer) => answer.body?.data;
const codes = (answer: HttpAnswer) =>
  ((answer.body?.errors ?? []) as { extensions?: { code?: string } }[]).map((e) => e.extensions?.code);

/** Waits for `condition` (polled every 50 ms) or fails with `what` after `timeoutMs`. */
async function waitFor(what: string, condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The keys a replica's filter of written keys holds (`/metrics`). */
const WRITTEN_KEYS = 'chess_paths_cache_entries{cache="written_keys"}';

async function metric(base: string, name: string): Promise<number> {
  const text = (await (await fetch(`${base}/metrics`)).text()).split('\n');
  return text.filter((l) => l.startsWith(name)).reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
}

describe.skipIf(skipPostgres || (!haveNginx && !inCi))('three replicas on one PostgreSQL database behind nginx', () => {
  let db: TestDatabase;
  let replicas: ChildServer[] = [];
  let lb: LoadBalancer;
  const [A, B, C] = [0, 1, 2].map((i) => () => replicas[i].url);

  beforeAll(async () => {
    if (!haveNginx) throw new Error(`${NGINX} is missing: CI must install Debian's nginx (see .ci/run)`);
    db = await createTestDatabase();
    const env = {
      DATABASE_URL: db.url,
      LOG_LEVEL: 'error',
      RATE_LIMIT_MUTATIONS: String(LIMIT),
      // An hour: the window of the rate-limit test cannot end within any test's time limit.
      RATE_LIMIT_WINDOW_MS: '3600000',
      TRUST_PROXY_HOPS: '1',
    };
    // All three at once: their migrations (and the rate limiter's table) race.
    const started = await Promise.allSettled([0, 1, 2].map(() => startChildServer({ env, startTimeoutMs: 120_000 })));
    replicas = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    lb = await startLoadBalancer(replicas.map((r) => r.url));
  }, 240_000);

  afterAll(async () => {
    await lb?.stop();
    await Promise.all(replicas.map((r) => r.stop()));
    await db?.drop();
  });

  it('applies each migration once while the three start together, and nginx spreads requests over all three', async () => {
    const dirs = readdirSync(join(ROOT, 'prisma', 'postgresql', 'migrations'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    const rows = await queryPostgres<{ migration_name: string; finished_at: Date | null; rolled_back_at: Date | null }>(
      db.url,
      'SELECT migration_name, finished_at, rolled_back_at FROM _prisma_migrations ORDER BY migration_name',
    );
    expect(rows.map((r) => r.migration_name)).toEqual([...dirs].sort());
    expect(rows.every((r) => r.finished_at !== null && r.rolled_back_at === null)).toBe(true);

    const upstreams = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const answer = await send(`${lb.url}/health`);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ status: 'ok', database: 'ok' });
      upstreams.add(String(answer.headers['x-upstream']));
    }
    expect([...upstreams].sort()).toEqual(replicas.map((r) => new URL(r.url).host).sort());
  });

  it('answers on B and C from the results A was asked for twice and stored, without solving them again', async () => {
    const queries = Array.from({ length: 3 }, randomQuery);
    const keysSeen = () => Promise.all([B(), C()].map((r) => metric(r, WRITTEN_KEYS)));
    const seenBefore = await keysSeen();
    const deferred = await metric(A(), 'chess_paths_cache_writes_deferred_total');
    const firstOnA = data(await gql(A(), BATCH, { q: queries }));
    expect(firstOnA.shortestPathsBatch.map((r: { cached: boolean }) => r.cached)).toEqual([false, false, false]);
    // Asked once and cheap to solve again: not written.
    expect(await metric(A(), 'chess_paths_cache_writes_deferred_total')).toBe(deferred + 3);
    const onA = data(await gql(A(), BATCH, { q: queries }));
    expect(onA.shortestPathsBatch).toEqual(firstOnA.shortestPathsBatch);
    const keys: string[] = onA.shortestPathsBatch.map((r: { key: string }) => r.key);
    // A's cache writer stores the results after answering: wait for the rows, not for B.
    await waitFor('A to store its results', async () => {
      const [row] = await queryPostgres<{ n: string }>(
        db.url,
        'SELECT count(*) AS n FROM "CachedResult" WHERE key = ANY($1)',
        [keys],
      );
      return Number(row.n) === new Set(keys).size;
    });
    // B's and C's filters of written keys read what other replicas wrote every second.
    await waitFor('B and C to see the keys', async () =>
      (await keysSeen()).every((n, i) => n >= seenBefore[i] + new Set(keys).size),
    );
    const solvesOnB = await metric(B(), 'chess_paths_engine_solves_total');
    for (const replica of [B(), C()]) {
      const answer = await gql(replica, BATCH, { q: queries });
      expect(data(answer).shortestPathsBatch).toEqual(
        onA.shortestPathsBatch.map((r: { cached: boolean }) => ({ ...r, cached: true })),
      );
    }
    expect(await metric(B(), 'chess_paths_engine_solves_total')).toBe(solvesOnB);
  });

  it('takes an edit token on any replica: saved on A, updated on B, a wrong token refused on C', async () => {
    const from = '127.0.3.1';
    const saved = data(await gql(A(), SAVE, { i: randomContent('token test') }, from)).saveAnalysis;
    const updated = await gql(B(), UPDATE, { id: saved.analysis.id, t: saved.editToken, i: { title: 'on B' } }, from);
    expect(updated.body).toEqual({ data: { updateAnalysis: { id: saved.analysis.id, title: 'on B', version: 2 } } });
    const wrong = `${saved.editToken.slice(0, -2)}${saved.editToken.endsWith('AA') ? 'BB' : 'AA'}`;
    const refused = await gql(C(), UPDATE, { id: saved.analysis.id, t: wrong, i: { title: 'on C' } }, from);
    expect(codes(refused)).toEqual(['FORBIDDEN']);
    expect(data(await gql(C(), READ, { id: saved.analysis.id })).analysis.title).toBe('on B');
  });

  it(`shares the rate limit: ${LIMIT} mutations from one address over three replicas exhaust it on all`, async () => {
    const from = '127.0.4.1';
    for (const replica of [A(), B(), C(), A(), B()]) {
      const answer = await gql(replica, SAVE, { i: randomContent('rate limit') }, from);
      expect([answer.status, codes(answer)]).toEqual([200, []]);
    }
    // In memory per replica, C would have counted only one of them and let this one through.
    for (const replica of [C(), A(), B(), lb.url]) {
      const answer = await gql(replica, SAVE, { i: randomContent('over the limit') }, from);
      expect([answer.status, codes(answer)], `the ${LIMIT + 1}th mutation on ${replica}`).toEqual([
        429,
        ['RATE_LIMITED'],
      ]);
    }
    // Another address is not limited.
    expect(codes(await gql(C(), SAVE, { i: randomContent('other client') }, '127.0.4.2'))).toEqual([]);
  });

  it('keeps every acknowledged save whole when a replica is SIGKILLed in a burst of saves', async () => {
    const victim = replicas[2];
    interface Sent {
      content: Content;
      answer?: HttpAnswer;
      afterDeath: boolean;
    }
    const sent: Sent[] = [];
    let acks = 0;
    let dead = false;
    let killing: Promise<unknown> | undefined;
    // Each save from an address of its own: the rate limit (5 per address) never refuses one.
    const save = async (n: number): Promise<Sent> => {
      const entry: Sent = { content: randomContent(`burst ${n} ${Math.random()}`), afterDeath: dead };
      sent.push(entry);
      entry.answer = await gql(lb.url, SAVE, { i: entry.content }, `127.1.${n >> 8}.${n & 255}`);
      if (data(entry.answer)?.saveAnalysis?.analysis?.id && ++acks === KILL_AFTER_ACKS) {
        killing = victim.kill('SIGKILL').then(() => (dead = true));
      }
      return entry;
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: BURST_CLIENTS }, async () => {
        while (next < BURST_SAVES) await save(next++);
      }),
    );
    await killing;
    expect((await victim.exited).signal).toBe('SIGKILL');
    // Sent once the victim is known dead: nginx finds its port closed and uses the others.
    const afterKill = await Promise.all(Array.from({ length: 12 }, () => save(next++)));

    const acknowledged = sent.filter((s) => data(s.answer!)?.saveAnalysis?.analysis?.id);
    const failed = sent.filter((s) => !acknowledged.includes(s));
    console.log(
      `replicas: ${sent.length} saves, ${acknowledged.length} acknowledged, ` +
        `${failed.length} failed at the kill (HTTP ${failed.map((s) => s.answer?.status).join(', ') || '-'}), ` +
        `${sent.filter((s) => s.afterDeath).length} sent after it`,
    );
    // Only saves in flight on the victim can fail, and nginx answers those 502 (never resent).
    expect(failed.length).toBeLessThanOrEqual(BURST_CLIENTS);
    expect(failed.map((s) => s.answer?.status)).toEqual(failed.map(() => 502));
    expect(sent.filter((s) => s.afterDeath && !acknowledged.includes(s))).toEqual([]);
    expect(afterKill.every((s) => acknowledged.includes(s))).toBe(true);

    for (const s of acknowledged) {
      const id = data(s.answer!).saveAnalysis.analysis.id;
      const read = data(await gql(lb.url, READ, { id }));
      expect(read, `analysis ${id}`).toEqual({
        analysis: {
          title: s.content.title,
          notes: s.content.notes,
          results: s.content.queries.map((q) => ({
            piece: q.piece,
            mask: q.mask,
            sources: { squares: q.from },
            targets: { squares: q.to },
          })),
        },
      });
    }
    // No save was stored twice: nginx never resends a POST a replica had received.
    const twice = await queryPostgres(
      db.url,
      `SELECT title FROM "Analysis" WHERE title LIKE 'burst %' GROUP BY title HAVING count(*) > 1`,
    );
    expect(twice).toEqual([]);
    for (const survivor of replicas.slice(0, 2)) expect((await send(`${survivor.url}/health`)).status).toBe(200);
  }, 180_000);
});
