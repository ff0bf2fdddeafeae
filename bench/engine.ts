/**
 * `npm run bench`: throughput of `solve` (distance + layers) against a plain queue BFS on the
 * same seeded workloads, measured in the same run so that the ratio survives a noisy machine.
 * Prints a table and writes `bench/results.json`. Timing lives here, never in the tests.
 */
import { writeFileSync } from 'node:fs';
import { formatBitboard, ORTHODOX_MOVERS, type PathQuery, solve, squareName } from '@chess-paths/engine';
import { baselineBfs } from './baseline-bfs.js';
import { seededRandom } from './rng.js';

function randomMask(files: number, ranks: number, density: number, rand: () => number): string {
  const words = new Int32Array((files * ranks + 31) >>> 5);
  for (let i = 0; i < files * ranks; i++) if (rand() >= density) words[i >>> 5] |= 1 << (i & 31);
  return formatBitboard(words, { files, ranks });
}

function mixed8x8(count: number): PathQuery[] {
  const rand = seededRandom(1);
  const board = { files: 8, ranks: 8 };
  return Array.from({ length: count }, () => ({
    piece: ORTHODOX_MOVERS[Math.floor(rand() * ORTHODOX_MOVERS.length)],
    from: [squareName(Math.floor(rand() * 64), board)],
    to: [squareName(Math.floor(rand() * 64), board)],
    mask: randomMask(8, 8, rand() * 0.35, rand),
  }));
}

function openKing8x8(count: number): PathQuery[] {
  const rand = seededRandom(2);
  const board = { files: 8, ranks: 8 };
  return Array.from({ length: count }, () => ({
    piece: 'KING' as const,
    from: [squareName(Math.floor(rand() * 64), board)],
    to: [squareName(Math.floor(rand() * 64), board)],
  }));
}

function knight64(count: number): PathQuery[] {
  const rand = seededRandom(3);
  const board = { files: 64, ranks: 64 };
  return Array.from({ length: count }, () => ({
    piece: 'KNIGHT' as const,
    board,
    from: [squareName(Math.floor(rand() * 4096), board)],
    to: [squareName(Math.floor(rand() * 4096), board)],
    mask: randomMask(64, 64, rand() * 0.2, rand),
  }));
}

/** A maze: a wall every 16 ranks, each with 6 openings at random files; distances in the hundreds. */
function kingMaze256(count: number): PathQuery[] {
  const rand = seededRandom(4);
  const board = { files: 256, ranks: 256 };
  return Array.from({ length: count }, () => {
    const words = new Int32Array(2048).fill(-1);
    for (let r = 16; r < 256; r += 16) {
      const openings = new Set([0, 1, 2, 3, 4, 5].map(() => Math.floor(rand() * 256)));
      for (let f = 0; f < 256; f++) if (!openings.has(f)) words[(r * 256 + f) >>> 5] &= ~(1 << ((r * 256 + f) & 31));
    }
    return {
      piece: 'KING' as const,
      board,
      from: [squareName(Math.floor(rand() * 256), board)],
      to: [squareName(255 * 256 + Math.floor(rand() * 256), board)],
      mask: formatBitboard(words, board),
    };
  });
}

/** The nightrider (NN) on 64 x 64 with 10 % obstacles: rides of knight leaps, random ends. */
function nightrider64(count: number): PathQuery[] {
  const rand = seededRandom(5);
  const board = { files: 64, ranks: 64 };
  return Array.from({ length: count }, () => ({
    piece: 'FAIRY' as const,
    betza: 'NN',
    board,
    from: [squareName(Math.floor(rand() * 4096), board)],
    to: [squareName(Math.floor(rand() * 4096), board)],
    mask: randomMask(64, 64, 0.1, rand),
  }));
}

/**
 * The king maze for the camel (C, the (1, 3) leaper): a camel clears anything thinner than four
 * ranks, so each wall is three ranks thick, one every 16 ranks, with 6 openings (each 2 files
 * wide, through the three ranks) at random files. A camel keeps the colour of its square, so the
 * target is picked on the source's colour.
 */
function camelMaze256(count: number): PathQuery[] {
  const rand = seededRandom(6);
  const board = { files: 256, ranks: 256 };
  return Array.from({ length: count }, () => {
    const words = new Int32Array(2048).fill(-1);
    for (let r = 16; r < 254; r += 16) {
      const openings = new Set<number>();
      for (let k = 0; k < 6; k++) {
        const f = Math.floor(rand() * 255);
        openings.add(f).add(f + 1);
      }
      for (let y = r; y < r + 3; y++)
        for (let f = 0; f < 256; f++) if (!openings.has(f)) words[(y * 256 + f) >>> 5] &= ~(1 << ((y * 256 + f) & 31));
    }
    const from = Math.floor(rand() * 256);
    // Rank 255 is odd: the target's file has the other parity than the source's.
    const to = (Math.floor(rand() * 128) * 2 + ((from + 1) & 1)) & 255;
    return {
      piece: 'FAIRY' as const,
      betza: 'C',
      board,
      from: [squareName(from, board)],
      to: [squareName(255 * 256 + to, board)],
      mask: formatBitboard(words, board),
    };
  });
}

/** The amazon (QN, queen + knight) on 8 x 8 with 0-35 % obstacles. */
function amazon8x8(count: number): PathQuery[] {
  const rand = seededRandom(7);
  const board = { files: 8, ranks: 8 };
  return Array.from({ length: count }, () => ({
    piece: 'FAIRY' as const,
    betza: 'QN',
    from: [squareName(Math.floor(rand() * 64), board)],
    to: [squareName(Math.floor(rand() * 64), board)],
    mask: randomMask(8, 8, rand() * 0.35, rand),
  }));
}

/** The Xiangqi horse (nN, the knight that a piece beside it stops) on 9 x 10, 0-30 % obstacles. */
function xiangqiHorse9x10(count: number): PathQuery[] {
  const rand = seededRandom(8);
  const board = { files: 9, ranks: 10 };
  return Array.from({ length: count }, () => ({
    piece: 'FAIRY' as const,
    betza: 'nN',
    board,
    from: [squareName(Math.floor(rand() * 90), board)],
    to: [squareName(Math.floor(rand() * 90), board)],
    mask: randomMask(9, 10, rand() * 0.3, rand),
  }));
}

/** A hopper (`betza`) on a `files` x `ranks` board with 0-40 % obstacles, its hurdles. */
function hopper(betza: string, files: number, ranks: number, count: number, seed: number): PathQuery[] {
  const rand = seededRandom(seed);
  const board = { files, ranks };
  const n = files * ranks;
  return Array.from({ length: count }, () => ({
    piece: 'FAIRY' as const,
    betza,
    board,
    from: [squareName(Math.floor(rand() * n), board)],
    to: [squareName(Math.floor(rand() * n), board)],
    mask: randomMask(files, ranks, rand() * 0.4, rand),
  }));
}

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
const workloads = [
  { name: '8x8 mixed pieces, 0-35% obstacles', queries: mixed8x8(4000), target: 50 },
  { name: '8x8 open king', queries: openKing8x8(4000), target: 50 },
  { name: '64x64 knight, 0-20% obstacles', queries: knight64(200), target: 5 },
  { name: '256x256 king maze', queries: kingMaze256(20), target: 3 },
  { name: '64x64 nightrider (NN), 10% obstacles', queries: nightrider64(200), target: 20 },
  { name: '256x256 camel (C) maze', queries: camelMaze256(20), target: 20, minReachable: 0.9 },
  { name: '8x8 amazon (QN), 0-35% obstacles', queries: amazon8x8(4000), target: 20 },
  { name: '9x10 Xiangqi horse (nN), 0-30% obstacles', queries: xiangqiHorse9x10(4000), target: 20 },
  { name: '9x10 Janggi cannon (pR), 0-40% hurdles', queries: hopper('pR', 9, 10, 2000, 9), target: 20 },
  { name: '8x8 grasshopper (gQ), 0-40% hurdles', queries: hopper('gQ', 8, 8, 2000, 10), target: 20 },
  { name: '64x64 nightrider-hopper (pNN), 0-40% hurdles', queries: hopper('pNN', 64, 64, 100, 11), target: 20 },
];

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
