/**
 * `npm run bench`: throughput of `solve` (distance + layers) against a plain queue BFS on the
 * same seeded workloads, measured in the same run so that the ratio survives a noisy machine.
 * Prints a table and writes `bench/results.json`. Timing lives here, never in the tests.
 */
import { writeFileSync } from 'node:fs';
import { type PathQuery, solve } from '@chess-paths/engine';
import { baselineBfs } from './baseline-bfs.js';
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

/**
 * Checks that engine and baseline agree on every workload query before timing anything, and that
 * at least `minReachable` of them (a fraction) have a path.
 */
function crossCheck(name: string, queries: PathQuery[], minReachable = 0): void {
  let reachable = 0;
  for (const q of queries) {
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
const results = chosen.map(({ name, queries, target, minReachable }) => {
  crossCheck(name, queries, minReachable);
  const bfs = throughput(queries, bfsDistanceAndLayers, seconds * 1000);
  const engine = throughput(queries, solveDistanceAndLayers, seconds * 1000);
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
if (!only)
  writeFileSync(
    new URL('./results.json', import.meta.url),
    `${JSON.stringify({ node: process.version, date: new Date().toISOString(), results }, null, 2)}\n`,
  );
if (sink === 42) console.log('');
