/**
 * Fairy pieces on small boards other than 8 x 8 (up to `SMALL_WORDS` words, 256 squares: the
 * Xiangqi board, 10 x 10, 13 x 11, ...): the fill on dense word arrays. On a board of a few words
 * the general fill's sparse lists, accumulators and per-layer arrays cost several times the fill
 * itself, as on 8 x 8 (`fairy64.ts`); here a frontier is its few words and a leap is one shift
 * and one AND a word.
 *
 * A ray's landings from a set X are `pro ∩ (X + d)`, where pro(v) = P(v) ∩ files(v - d) ∩
 * P(v - d + p) for each square p a lame leap passes over: the squares a leap from a start it may
 * leave lands on, passable. `files + d` depends on the board only and is kept; pro is made once
 * per solve, straight from P (one shifted AND per lame square), with no guard in between. A ride
 * whose limit reaches the edge rides by doubling from pro (`fairy-rides.ts`), a shorter one leap
 * by leap. Rays are flat typed arrays, not objects: the step is a tight loop over numbers.
 *
 * The set a step moves from (and P, for pro) sits between padding words, `PAD` each side, so a
 * shifted read never needs a bounds check. Below the set they are zero; above it they may hold
 * a larger board's words from an earlier solve, which is harmless: a bit read from square u >= n
 * lands on u + d, where `files + d` is clear (its start is off the board), and so are the lame
 * squares' reads (a leap on the board passes over squares on the board).
 *
 * With a single target, the squares one move before it are found first (one backward step from
 * one square): a frontier that meets them ends the forward fill a step early, and they are the
 * first backward step. Frontiers F_0 .. F_D and then the layers live in one module array, layer k
 * at words `k * words ..`, which `smallLayerStore` copies out.
 */
import type { FairyPiece, FairyRay, HopRay } from './betza.js';
import { SMALL_WORDS } from './board.js';
import { hopWords } from './fairy-hops.js';
import { extendRideChain, leapsOnBoard, newRideChain, type RideChain, rideDense } from './fairy-rides.js';
import type { Geometry } from './geometry.js';
import { DenseLayers } from './layers.js';
import { heldBytes, keptTables } from './memory.js';

/** Padding words on each side of a padded set: a shift reads at most SMALL_WORDS + 2 words away. */
const PAD = SMALL_WORDS + 2;

/** Frontiers, then layers: word `k * words + w` is word w of step k (grown as needed, up to 256 steps). */
let steps: Int32Array = new Int32Array(64 * SMALL_WORDS);
/** Padded sets (words PAD ..): a step's source, a ride's last leap, P. */
const front = new Int32Array(SMALL_WORDS + 2 * PAD);
const rideFront = new Int32Array(SMALL_WORDS + 2 * PAD);
const openPad = new Int32Array(SMALL_WORDS + 2 * PAD);

/** Counts solves: a table's pro made in another solve is stale. */
let solveCount = 0;

/** One direction's rays (forward or reversed) of a piece on one board, as flat arrays. */
interface RayTable {
  readonly count: number;
  /** Per ray: whole words and bits of the shift, `|delta| = 32 |q| + t`, q < 0 when delta < 0. */
  readonly q: Int32Array;
  readonly t: Int32Array;
  readonly max: Int32Array;
  /** Ray i's lame squares give shifts `lameShift[lameStart[i] .. lameStart[i + 1])` of P (d - p). */
  readonly lameStart: Int32Array;
  readonly lameShift: Int32Array;
  /** Words per ray in `landing` and `pro`: 4 up to 4 words (the unrolled step reads 4), else the board's. */
  readonly stride: number;
  /** Ray i's `files + d` at words `i * stride ..`, and its pro for the solve `epoch`. */
  readonly landing: Int32Array;
  readonly pro: Int32Array;
  /** A ride whose limit reaches the edge rides by doubling: its chain, else null. */
  readonly chains: readonly (RideChain | null)[];
  /** Per ray: the shift in squares. */
  readonly delta: Int32Array;
  /** The solve `pro` was made for (`solveCount`). */
  epoch: number;
}

/** A piece on one board: its tables and the scratch of its size. */
interface SmallPiece {
  readonly words: number;
  readonly forward: RayTable;
  readonly reverse: RayTable;
  readonly visited: Int32Array;
  readonly moved: Int32Array;
  readonly leap: Int32Array;
  readonly gen: Int32Array;
  /** The source of a step unpadded, for the rides by doubling. */
  readonly plain: Int32Array;
  /** With a single target, the squares one move before it. */
  readonly before: Int32Array;
  /** A hopper's hops and board sides (stepped by `hopWords`, `fairy-hops.ts`), or null. */
  readonly hop: { hops: readonly HopRay[]; files: number; ranks: number } | null;
}

/** Per piece and board, in the `boards` cache (`memory.ts`): by canonical text (equal rays) and size. */
const pieces = keptTables<SmallPiece>('boards', 'small');

/** Word w of the padded set `src` shifted by (q, t) squares, delta's sign `up`. */
function shiftedAt(src: Int32Array, w: number, q: number, t: number, up: boolean): number {
  const a = PAD + w - q;
  return up ? (src[a] << t) | ((src[a - 1] >>> (31 - t)) >>> 1) : (src[a] >>> t) | ((src[a + 1] << (31 - t)) << 1);
}

/** The table of `rays` on the board of `geo`: shifts, limits, lame shifts and `files + d`. */
function rayTable(geo: Geometry, rays: readonly FairyRay[]): RayTable {
  const { files, n } = geo;
  const words = geo.words;
  const count = rays.length;
  const q = new Int32Array(count);
  const t = new Int32Array(count);
  const delta = new Int32Array(count);
  const max = new Int32Array(count);
  const lameStart = new Int32Array(count + 1);
  const lameShift: number[] = [];
  const stride = Math.max(words, 4);
  const landing = new Int32Array(count * stride);
  const chains: (RideChain | null)[] = [];
  rays.forEach(({ dx, dy, max: m, lame }, i) => {
    const d = dy * files + dx;
    const e = Math.abs(d);
    // A shift of more than the board's words lands nothing: q is capped so reads stay in the padding.
    q[i] = Math.min(e >>> 5, words + 1) * Math.sign(d);
    t[i] = e & 31;
    delta[i] = d;
    max[i] = m;
    for (const [px, py] of lame) lameShift.push(d - (py * files + px));
    lameStart[i + 1] = lameShift.length;
    for (let u = 0; u < n; u++) {
      const f = (u % files) + dx;
      const v = u + d;
      if (f >= 0 && f < files && v >= 0 && v < n) landing[i * stride + (v >>> 5)] |= 1 << (v & 31);
    }
    const leaps = leapsOnBoard(geo, dx, dy);
    chains.push(m > 1 && leaps > 1 && m >= leaps ? newRideChain(words, leaps) : null);
  });
  return {
    count,
    q,
    t,
    max,
    lameStart,
    lameShift: Int32Array.from(lameShift),
    landing,
    stride,
    pro: new Int32Array(count * stride),
    chains,
    delta,
    epoch: -1,
  };
}

/** The tables and scratch of `piece` on `geo`, made on first use and kept while they fit. */
function smallPiece(geo: Geometry, piece: FairyPiece): SmallPiece {
  const id = `${piece.betza}@${geo.files}x${geo.ranks}`;
  let small = pieces.get(id);
  if (small === undefined) {
    const words = geo.words;
    const reversed = piece.rays.map(({ dx, dy, max, lame }) => ({
      dx: -dx,
      dy: -dy,
      max,
      lame: lame.map(([px, py]) => [px - dx, py - dy] as const),
    }));
    small = {
      words,
      forward: rayTable(geo, piece.rays),
      reverse: rayTable(geo, reversed),
      visited: new Int32Array(words),
      moved: new Int32Array(words),
      leap: new Int32Array(words),
      gen: new Int32Array(words),
      plain: new Int32Array(words),
      before: new Int32Array(words),
      hop: piece.hops.length > 0 ? { hops: piece.hops, files: geo.files, ranks: geo.ranks } : null,
    };
    pieces.set(id, small, heldBytes(small));
  }
  return small;
}

/** Makes the table's pro (and chains) for P in `openPad`. */
function makePro(table: RayTable, words: number): void {
  const { pro, landing, lameStart, lameShift } = table;
  for (let i = 0; i < table.count; i++) {
    const base = i * table.stride;
    for (let w = 0; w < words; w++) pro[base + w] = openPad[PAD + w] & landing[base + w];
    for (let l = lameStart[i]; l < lameStart[i + 1]; l++) {
      const s = lameShift[l];
      const e = Math.abs(s);
      const q = Math.min(e >>> 5, words + 1) * Math.sign(s);
      for (let w = 0; w < words; w++) pro[base + w] &= shiftedAt(openPad, w, q, e & 31, s >= 0);
    }
    const chain = table.chains[i];
    if (chain !== null) {
      chain.levels[0].set(pro.subarray(base, base + words));
      extendRideChain(chain, table.delta[i]);
    }
  }
  table.epoch = solveCount;
}

/** Sets `small.moved` to every square one move along `table` from the set at `src[at]`. */
function step(small: SmallPiece, table: RayTable, src: ArrayLike<number>, at: number): void {
  const { moved, leap, words } = small;
  if (table.epoch !== solveCount) makePro(table, words);
  for (let w = 0; w < words; w++) {
    front[PAD + w] = src[at + w];
    moved[w] = 0;
  }
  const { pro, q, t, max, chains, stride } = table;
  // Up to 4 words, the leaps' landings gather in four locals, each ray unrolled (a loop of 3
  // words costs as much again as its body); pro is zero past the board's words.
  const unrolled = words <= 4;
  let m0 = 0;
  let m1 = 0;
  let m2 = 0;
  let m3 = 0;
  for (let i = 0; i < table.count; i++) {
    const chain = chains[i];
    if (chain !== null) {
      for (let w = 0; w < words; w++) small.plain[w] = front[PAD + w];
      rideDense(small.plain, table.delta[i], chain, small.gen, moved);
      continue;
    }
    const base = i * stride;
    const a = PAD - q[i];
    const ti = t[i];
    const ui = 31 - ti;
    const up = table.delta[i] >= 0;
    if (max[i] === 1 && unrolled) {
      if (up) {
        const c = (front[a - 1] >>> ui) >>> 1;
        const f0 = front[a];
        const f1 = front[a + 1];
        const f2 = front[a + 2];
        const f3 = front[a + 3];
        m0 |= pro[base] & ((f0 << ti) | c);
        m1 |= pro[base + 1] & ((f1 << ti) | ((f0 >>> ui) >>> 1));
        m2 |= pro[base + 2] & ((f2 << ti) | ((f1 >>> ui) >>> 1));
        m3 |= pro[base + 3] & ((f3 << ti) | ((f2 >>> ui) >>> 1));
      } else {
        const f0 = front[a];
        const f1 = front[a + 1];
        const f2 = front[a + 2];
        const f3 = front[a + 3];
        const f4 = front[a + 4];
        m0 |= pro[base] & ((f0 >>> ti) | ((f1 << ui) << 1));
        m1 |= pro[base + 1] & ((f1 >>> ti) | ((f2 << ui) << 1));
        m2 |= pro[base + 2] & ((f2 >>> ti) | ((f3 << ui) << 1));
        m3 |= pro[base + 3] & ((f3 >>> ti) | ((f4 << ui) << 1));
      }
      continue;
    }
    // A leap on a larger board, or a ride short of the board's edge leap by leap.
    let from = front;
    for (let j = 0; j < max[i]; j++) {
      let any = 0;
      for (let w = 0; w < words; w++) {
        const v = pro[base + w] & shiftedAt(from, w, q[i], ti, up);
        leap[w] = v;
        moved[w] |= v;
        any |= v;
      }
      if (any === 0) break;
      // The next leap reads these landings padded (never the array it writes).
      for (let w = 0; w < words; w++) rideFront[PAD + w] = leap[w];
      from = rideFront;
    }
  }
  if (unrolled) {
    moved[0] |= m0;
    if (words > 1) moved[1] |= m1;
    if (words > 2) moved[2] |= m2;
    if (words > 3) moved[3] |= m3;
  }
  const hop = small.hop;
  if (hop !== null)
    hopWords(hop.hops, hop.files, hop.ranks, openPad, PAD, src, at, words, table === small.reverse, moved);
}

/**
 * Solves a fairy question on a small board (P, S' and T' as `words` words at `data[0]`,
 * `data[words]`, `data[2 * words]`). Returns D and leaves L_0 .. L_D for `smallLayerStore`, or
 * returns -1 when no target is reachable.
 */
export function solveFairySmall(geo: Geometry, piece: FairyPiece, data: ArrayLike<number>): number {
  const words = geo.words;
  const t = 2 * words;
  let targetWords = 0;
  let target = 0;
  let source = 0;
  for (let w = 0; w < words; w++) {
    if (data[t + w] !== 0) targetWords++;
    target |= data[t + w];
    source |= data[words + w];
  }
  if (targetWords === 0 || source === 0) return -1; // S' or T' empty: nothing to fill
  const small = smallPiece(geo, piece);
  solveCount++;
  for (let w = 0; w < words; w++) openPad[PAD + w] = data[w];
  const { visited, moved, before } = small;
  const single = targetWords === 1 && (target & (target - 1)) === 0;
  if (single) {
    step(small, small.reverse, data, t);
    before.set(moved);
  }
  let early = false;
  for (let w = 0; w < words; w++) {
    steps[w] = data[words + w];
    visited[w] = data[words + w];
  }
  let k = 0;
  for (;;) {
    const at = k * words;
    let hit = 0;
    let any = 0;
    let near = 0;
    for (let w = 0; w < words; w++) {
      hit |= steps[at + w] & data[t + w];
      any |= steps[at + w];
      near |= steps[at + w] & before[w];
    }
    if (hit !== 0) break;
    if (any === 0) return -1;
    if (at + 2 * words > steps.length) steps = grown(steps);
    k++;
    if (single && near !== 0) {
      // F_k ∩ T' is the target: the rest of F_k is never read.
      for (let w = 0; w < words; w++) steps[at + words + w] = data[t + w];
      early = true;
      break;
    }
    step(small, small.forward, steps, at);
    for (let w = 0; w < words; w++) {
      const v = moved[w] & ~visited[w];
      steps[at + words + w] = v;
      visited[w] |= v;
    }
  }
  const distance = k;
  for (let w = 0; w < words; w++) steps[distance * words + w] &= data[t + w];
  for (k = distance; k > 0; k--) {
    const moves = early && k === distance ? before : moved;
    if (moves === moved) step(small, small.reverse, steps, k * words);
    for (let w = 0; w < words; w++) steps[(k - 1) * words + w] &= moves[w];
  }
  return distance;
}

function grown(old: Int32Array): Int32Array {
  const out = new Int32Array(old.length * 2);
  out.set(old);
  return out;
}

/**
 * The layers the last `solveFairySmall` left (D = `distance`), copied into a store of their
 * own: a plain array, which costs less to make than a typed one of a few words.
 */
export function smallLayerStore(distance: number, words: number): DenseLayers {
  const size = (distance + 1) * words;
  const copy: number[] = [];
  for (let i = 0; i < size; i++) copy.push(steps[i]);
  return new DenseLayers(copy, words, distance + 1);
}
