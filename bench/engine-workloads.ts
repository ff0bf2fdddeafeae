/**
 * The engine's benchmark workloads, seeded so that every run (and every build compared) asks the
 * same questions: 8 x 8 mixed pieces and the open king (the outside yardstick's two small rows),
 * the large boards where the WebAssembly kernels run, distance maps, and the fairy pieces. `npm run bench` times
 * them against a plain BFS; `npm run bench:engine-ab` times two builds of the engine on them.
 */
import { formatBitboard, ORTHODOX_MOVERS, type PathQuery, squareName } from '@chess-paths/engine';
import { seededRandom } from './rng.js';

/** A named workload and the ratio to the BFS that `npm run bench` expects of it. */
export interface EngineWorkload {
  name: string;
  queries: PathQuery[];
  target: number;
  /** The least fraction of questions with a path (a maze that walls everything off is no test). */
  minReachable?: number;
  /** True when the row times the distance map (`distances`, every square's distance) instead. */
  distanceMap?: boolean;
}

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

/** The rook, the bishop and the queen on 64 x 64 with 0-20 % obstacles. */
function sliders64(count: number): PathQuery[] {
  const rand = seededRandom(12);
  const board = { files: 64, ranks: 64 };
  const pieces = ['ROOK', 'BISHOP', 'QUEEN'] as const;
  return Array.from({ length: count }, () => ({
    piece: pieces[Math.floor(rand() * 3)],
    board,
    from: [squareName(Math.floor(rand() * 4096), board)],
    to: [squareName(Math.floor(rand() * 4096), board)],
    mask: randomMask(64, 64, rand() * 0.2, rand),
  }));
}

/** The queen on 256 x 256 with 35 % obstacles, between open squares: short rays, distances of dozens of moves. */
function queen256(count: number): PathQuery[] {
  const rand = seededRandom(13);
  const board = { files: 256, ranks: 256 };
  return Array.from({ length: count }, () => {
    const open: number[] = [];
    const words = new Int32Array(2048);
    for (let i = 0; i < 65536; i++) {
      if (rand() < 0.35) continue;
      words[i >>> 5] |= 1 << (i & 31);
      open.push(i);
    }
    const pick = () => squareName(open[Math.floor(rand() * open.length)], board);
    return { piece: 'QUEEN' as const, board, from: [pick()], to: [pick()], mask: formatBitboard(words, board) };
  });
}

/** A `piece` on a `side` x `side` board with 0-20 % obstacles from a random square: for distance maps. */
function openBoard(piece: 'KING' | 'QUEEN', side: number, count: number, seed: number): PathQuery[] {
  const rand = seededRandom(seed);
  const board = { files: side, ranks: side };
  return Array.from({ length: count }, () => ({
    piece,
    board,
    from: [squareName(Math.floor(rand() * side * side), board)],
    to: [squareName(Math.floor(rand() * side * side), board)],
    mask: randomMask(side, side, rand() * 0.2, rand),
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

/** Every workload, built afresh (a few hundred milliseconds: the large boards' masks). */
export function engineWorkloads(): EngineWorkload[] {
  return [
    { name: '8x8 mixed pieces, 0-35% obstacles', queries: mixed8x8(4000), target: 50 },
    { name: '8x8 open king', queries: openKing8x8(4000), target: 50 },
    { name: '64x64 knight, 0-20% obstacles', queries: knight64(200), target: 5 },
    { name: '256x256 king maze', queries: kingMaze256(20), target: 3 },
    { name: '64x64 rook, bishop, queen, 0-20% obstacles', queries: sliders64(200), target: 20 },
    { name: '256x256 queen, 35% obstacles', queries: queen256(20), target: 20, minReachable: 0.9 },
    {
      name: '256x256 king distance map, 0-20% obstacles',
      queries: openBoard('KING', 256, 10, 14),
      target: 5,
      distanceMap: true,
    },
    {
      name: '64x64 queen distance map, 0-20% obstacles',
      queries: openBoard('QUEEN', 64, 100, 15),
      target: 5,
      distanceMap: true,
    },
    { name: '64x64 nightrider (NN), 10% obstacles', queries: nightrider64(200), target: 20 },
    { name: '256x256 camel (C) maze', queries: camelMaze256(20), target: 20, minReachable: 0.9 },
    { name: '8x8 amazon (QN), 0-35% obstacles', queries: amazon8x8(4000), target: 20 },
    { name: '9x10 Xiangqi horse (nN), 0-30% obstacles', queries: xiangqiHorse9x10(4000), target: 20 },
    { name: '9x10 Janggi cannon (pR), 0-40% hurdles', queries: hopper('pR', 9, 10, 2000, 9), target: 20 },
    { name: '8x8 grasshopper (gQ), 0-40% hurdles', queries: hopper('gQ', 8, 8, 2000, 10), target: 20 },
    { name: '64x64 nightrider-hopper (pNN), 0-40% hurdles', queries: hopper('pNN', 64, 64, 100, 11), target: 20 },
  ];
}
