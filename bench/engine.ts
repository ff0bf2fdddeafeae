/**
 * `npm run bench`: throughput of `solve` (distance + layers) against a plain queue BFS on the
 * same seeded workloads, measured in the same run so that the ratio survives a noisy machine;
 * then the two plain 8 x 8 workloads from text (`solve`) beside the same questions as square sets
 * (`solveWords`), their passes alternating. Prints the tables and writes `bench/results.json`.
 * Timing lives here, never in the tests.
 */
import { writeFileSync } from 'node:fs';
import { type PathQuery, parseBitboard, parseSquare, solve, solveWords, type WordsQuery } from '@chess-paths/engine';
import { baselineBfs, baselineDistances } from './baseline-bfs.js';
import { engineWorkloads } from './engine-workloads.js';

/** Runs `fn` over the queries repeatedly for about `ms` milliseconds; returns calls per second. */
function throughput(queries: PathQuery[], fn: (q: PathQuery) => unknown, ms: number): number {
  for (let i = 0; i < Math.min(queries.length, 200); i++) fn(queries[i]); // warm-up
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (const q of queries) fn(q);
    calls += queries.length;
    elapsed = performance.now() - start;
  }
  return (calls / elapsed) * 1000;
}

// Both sides read the same fields: the distance and every layer's size (as the outside
// yardstick, ../shared/bench-ref, does), so neither is timed on work the other skips.
let sink = 0;
function solveDistanceAndLayers(q: PathQuery): void {
  const r = solve(q);
  if (r.distance === null) return;
  sink += r.distance + 1;
  for (const layer of r.layers) sink += layer.count;
}
function bfsDistanceAndLayers(q: PathQuery): void {
  const r = baselineBfs(q);
  if (r === null) return;
  sink += r.distance + 1;
  for (const layer of r.layers) sink += layer.length;
}

// A distance map's rows read every square's distance on both sides.
function solveDistanceMap(q: PathQuery): void {
  for (const d of solve(q).distances) if (d !== null) sink += d;
}
function bfsDistanceMap(q: PathQuery): void {
  for (const d of baselineDistances(q)) if (d >= 0) sink += d;
}

/**
 * Checks that engine and baseline agree on every workload query before timing anything, and that
 * at least `minReachable` of them (a fraction) have a path; for a distance map's row, that the
 * maps agree.
 */
function crossCheck(name: string, queries: PathQuery[], minReachable = 0, distanceMap = false): void {
  let reachable = 0;
  for (const q of queries) {
    if (distanceMap) {
      const ours = solve(q).distances.map((d) => d ?? -1);
      if (ours.join() !== baselineDistances(q).join())
        throw new Error(`${name}: engine and baseline distance maps differ on ${JSON.stringify(q).slice(0, 200)}`);
      continue;
    }
    const a = solve(q);
    const b = baselineBfs(q);
    const same =
      b === null
        ? !a.reachable
        : a.distance === b.distance && a.layers.every((l, k) => l.indices.join() === b.layers[k].join());
    if (!same) throw new Error(`${name}: engine and baseline disagree on ${JSON.stringify(q).slice(0, 200)}`);
    if (b !== null) reachable++;
  }
  if (reachable < minReachable * queries.length)
    throw new Error(`${name}: only ${reachable} of ${queries.length} questions have a path`);
}

const seconds = Number(process.env.BENCH_SECONDS ?? 1);
const workloads = engineWorkloads();

// BENCH_ONLY=text: only the workloads whose name holds the text (results.json is then left alone).
const only = process.env.BENCH_ONLY;
const chosen = only ? workloads.filter((w) => w.name.includes(only)) : workloads;
const results = chosen.map(({ name, queries, target, minReachable, distanceMap }) => {
  crossCheck(name, queries, minReachable, distanceMap);
  const bfs = throughput(queries, distanceMap ? bfsDistanceMap : bfsDistanceAndLayers, seconds * 1000);
  const engine = throughput(queries, distanceMap ? solveDistanceMap : solveDistanceAndLayers, seconds * 1000);
  const distances = queries.map((q) => solve(q).distance ?? -1).filter((d) => d >= 0);
  const meanDistance = distances.reduce((a, b) => a + b, 0) / Math.max(1, distances.length);
  return {
    workload: name,
    queries: queries.length,
    meanDistance: Number(meanDistance.toFixed(1)),
    solvePerSec: Math.round(engine),
    bfsPerSec: Math.round(bfs),
    ratio: Number((engine / bfs).toFixed(1)),
    target,
  };
});

// The two 8 x 8 rows again, from square sets (`solveWords`): what reading the text costs.
const STANDARD = { files: 8, ranks: 8 };
function asWords(q: PathQuery): WordsQuery {
  const set = (names: readonly string[]) => {
    let lo = 0;
    let hi = 0;
    for (const name of names) {
      const i = parseSquare(name, STANDARD);
      if (i < 32) lo |= 1 << i;
      else hi |= 1 << (i - 32);
    }
    return { lo, hi };
  };
  const mask = q.mask == null ? undefined : parseBitboard(q.mask, STANDARD);
  return {
    piece: q.piece as WordsQuery['piece'],
    from: set(q.from),
    to: set(q.to),
    // Signed words, as chessops' SquareSet holds them (unsigned ones are taken too).
    ...(mask === undefined ? {} : { passable: { lo: mask[0] | 0, hi: mask[1] | 0 } }),
  };
}
function wordsDistanceAndLayers(q: WordsQuery): void {
  const r = solveWords(q);
  if (r.distance === null) return;
  sink += r.distance + 1;
  for (const layer of r.layers) sink += layer.count;
}
const fromWords = chosen
  .filter((w) => w.name.startsWith('8x8 mixed') || w.name.startsWith('8x8 open king'))
  .map(({ name, queries: texts }) => {
    const words = texts.map(asWords);
    // Passes of the two alternating, so that their ratio survives the machine's drift.
    let textMs = 0;
    let wordsMs = 0;
    let passes = 0;
    for (const start = performance.now(); performance.now() - start < 2 * seconds * 1000; passes++) {
      let t = performance.now();
      for (const q of texts) solveDistanceAndLayers(q);
      textMs += performance.now() - t;
      t = performance.now();
      for (const q of words) wordsDistanceAndLayers(q);
      wordsMs += performance.now() - t;
    }
    const textRate = (passes * texts.length * 1000) / textMs;
    const wordsRate = (passes * words.length * 1000) / wordsMs;
    return { workload: name, textPerSec: Math.round(textRate), wordsPerSec: Math.round(wordsRate) };
  });

console.log(`node ${process.version}, ${seconds}s per measurement`);
console.table(
  results.map((r) => ({
    workload: r.workload,
    'mean D': r.meanDistance,
    'solve/s': r.solvePerSec.toLocaleString('en-US'),
    'BFS/s': r.bfsPerSec.toLocaleString('en-US'),
    ratio: `${r.ratio}x`,
    target: `${r.target}x`,
  })),
);
if (fromWords.length > 0)
  console.table(
    fromWords.map((r) => ({
      'workload, from square sets (solveWords)': r.workload,
      'from text, solve/s': r.textPerSec.toLocaleString('en-US'),
      'from square sets, solve/s': r.wordsPerSec.toLocaleString('en-US'),
      ratio: `${(r.wordsPerSec / r.textPerSec).toFixed(2)}x`,
    })),
  );
if (!only)
  writeFileSync(
    new URL('./results.json', import.meta.url),
    `${JSON.stringify({ node: process.version, date: new Date().toISOString(), results, fromWords }, null, 2)}\n`,
  );
if (sink === 42) console.log('');
