/**
 * The checks of the SIGKILL durability test (test/hardening/durability.test.ts) on the restarted
 * server: a stored analysis is, field for field, one of the versions a client sent, with the
 * results the engine computes for its queries; every stored analysis id, paged through
 * `analyses`; and warm-up questions asked until their answers come back from the cache.
 */
import { type PathQuery, prepareQuery, solve } from '@chess-paths/engine';
import { expect } from 'vitest';
import { type Content, type Gql, gql } from './workload.js';

/** What the engine says about a list of queries: the expected results. */
function expectedResults(queries: PathQuery[]) {
  return queries.map((q) => {
    const solution = solve(q);
    return {
      key: prepareQuery(q).key,
      distance: solution.distance,
      layers: solution.layers.map((l) => ({ squares: [...l.squares] })),
    };
  });
}

const sameContent = (stored: { title: string; notes: string | null; fen: string | null }, content: Content) =>
  stored.title === content.title && stored.notes === content.notes && stored.fen === content.fen;

/** Checks one stored analysis against the versions it may hold; returns the one it holds. */
export function checkStored(
  stored: { id: string; title: string; notes: string | null; fen: string | null; results: unknown[] },
  versions: Content[],
): Content {
  const match = versions.find(
    (v) => sameContent(stored, v) && JSON.stringify(stored.results) === JSON.stringify(expectedResults(v.queries)),
  );
  expect(
    match,
    `analysis ${stored.id} (${stored.title}) is none of the ${versions.length} versions sent: ${JSON.stringify(stored).slice(0, 400)}`,
  ).toBeDefined();
  return match!;
}

/** Every stored analysis id, paged through `analyses`, and the total count it reports. */
export async function allStoredIds(url: string): Promise<{ ids: string[]; totalCount: number }> {
  const ids: string[] = [];
  let after: string | null = null;
  let totalCount = 0;
  for (let page = 0; page < 1000; page++) {
    const res: Gql = await gql(
      url,
      'query($a: String) { analyses(first: 1000, after: $a) { totalCount edges { node { id } } pageInfo { hasNextPage endCursor } } }',
      { a: after },
    );
    expect(res.errors).toBeUndefined();
    totalCount = res.data.analyses.totalCount;
    ids.push(...res.data.analyses.edges.map((e: { node: { id: string } }) => e.node.id));
    if (!res.data.analyses.pageInfo.hasNextPage) break;
    after = res.data.analyses.pageInfo.endCursor;
  }
  return { ids, totalCount };
}

/** Runs `f` over `items` with `n` at a time. */
export async function eachLimited<T>(items: T[], n: number, f: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await f(items[next++]);
    }),
  );
}

/** Asks `queries` until every answer is `cached: true` (their rows are written); returns the answers. */
export async function warmCache(url: string, queries: PathQuery[]) {
  const doc = 'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { key cached distance layers { squares } } }';
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await gql(url, doc, { q: queries });
    expect(res.errors).toBeUndefined();
    const answers = res.data.shortestPathsBatch as { key: string; cached: boolean }[];
    if (answers.every((a) => a.cached)) return answers;
    if (Date.now() > deadline) throw new Error('the warm-up questions never came back cached: true (30 s)');
    await new Promise((r) => setTimeout(r, 50));
  }
}
