/**
 * `npm run bench:engine-ab -- OTHER`: this checkout's engine against another build of it (OTHER:
 * a checkout whose `packages/engine/dist` is built, or an engine package directory), on the
 * workloads of `npm run bench`, in one process, their passes alternating.
 *
 * Why one process: these machines are shared, and their speed drifts by up to half over seconds
 * (the same process on the same core solved 8 x 8 questions in 240 ns, then 490), so two builds
 * timed one after the other differ by more than most changes do. Alternating passes puts both
 * builds in the same moments: each pass of one is paired with the pass of the other beside it,
 * and the median of those paired ratios is the comparison. Each build's pass is a function of its
 * own source text: closures of one function literal share their type feedback, which would make
 * the call to `solve` polymorphic and time neither build as a caller sees it.
 *
 * Options (env): BENCH_ONLY=text (workloads whose name holds it), BENCH_ROUNDS (paired passes,
 * default 40).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PathQuery, PathResult } from '@chess-paths/engine';
import * as thisEngine from '@chess-paths/engine';
import { engineWorkloads } from './engine-workloads.js';

type Solve = (query: PathQuery) => PathResult;

/** The other build's `solve`, from its package's main export. */
async function loadOther(path: string): Promise<Solve> {
  const dir = existsSync(join(path, 'packages/engine/package.json')) ? join(path, 'packages/engine') : path;
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  let entry = manifest.exports?.['.'] ?? manifest.main;
  if (entry && typeof entry === 'object') entry = entry.import ?? entry.default;
  if (typeof entry !== 'string') throw new Error(`${dir}/package.json names no main export`);
  const other = await import(pathToFileURL(resolve(dir, entry)).href);
  if (typeof other.solve !== 'function') throw new Error(`${dir}: the main export has no solve()`);
  return other.solve;
}

/** A pass over `queries` reading what the outside yardstick reads (distance, each layer's size), or the distance map; its own function. */
function passOf(solve: Solve, queries: PathQuery[], distanceMap = false): () => number {
  const read = distanceMap
    ? 'for (const d of r.distances) if (d !== null) sum += d;'
    : 'if (r.distance === null) continue; sum += r.distance + 1; for (const layer of r.layers) sum += layer.count;';
  return new Function(
    'solve',
    'queries',
    `return () => {
      let sum = 0;
      for (const q of queries) {
        const r = solve(q);
        ${read}
      }
      return sum;
    };`,
  )(solve, queries);
}

/** Nanoseconds a question of one pass. */
function timed(pass: () => number, count: number): number {
  const start = process.hrtime.bigint();
  pass();
  return Number(process.hrtime.bigint() - start) / count;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
};

const otherPath = process.argv[2];
if (!otherPath) {
  console.error(
    'usage: npm run bench:engine-ab -- OTHER (a checkout with packages/engine/dist built, or an engine package)',
  );
  process.exit(2);
}
const otherSolve = await loadOther(otherPath);
const rounds = Number(process.env.BENCH_ROUNDS ?? 40);
const only = process.env.BENCH_ONLY;
const rows = [];
for (const { name, queries, distanceMap } of engineWorkloads().filter((w) => !only || w.name.includes(only))) {
  const mine = passOf(thisEngine.solve, queries, distanceMap);
  const theirs = passOf(otherSolve, queries, distanceMap);
  const checksum = mine();
  if (theirs() !== checksum) throw new Error(`${name}: the two builds answer differently`);
  for (let warm = performance.now(); performance.now() - warm < 1000; ) {
    mine();
    theirs();
  }
  const mineNs: number[] = [];
  const theirsNs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    // Each build goes first in every other round.
    if (round % 2 === 0) {
      mineNs.push(timed(mine, queries.length));
      theirsNs.push(timed(theirs, queries.length));
    } else {
      theirsNs.push(timed(theirs, queries.length));
      mineNs.push(timed(mine, queries.length));
    }
  }
  const paired = mineNs.map((ns, i) => theirsNs[i] / ns).sort((a, b) => a - b);
  rows.push({
    workload: name,
    'this, ns': Math.round(median(mineNs)),
    'other, ns': Math.round(median(theirsNs)),
    'other / this (paired median)': paired[paired.length >> 1].toFixed(3),
    'middle half': `${paired[Math.floor(paired.length / 4)].toFixed(2)}-${paired[Math.floor((3 * paired.length) / 4)].toFixed(2)}`,
  });
}
console.log(`node ${process.version}, ${rounds} paired passes a workload; above 1: this build is faster`);
console.table(rows);
