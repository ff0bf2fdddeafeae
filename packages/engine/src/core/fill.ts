/**
 * Westcott's all-shortest-paths routine on word arrays, for any board from 1 x 1 to 256 x 256.
 *
 * Forward: fill from S' one move at a time, keeping each frontier F_k (squares first reached
 * at step k), until a frontier meets T'. Backward: L_D = F_D ∩ T', then
 * L_{k-1} = F_{k-1} ∩ pred(L_k), where pred is the reverse move (it differs from the forward
 * move only for pawns). Frontiers and layers are kept as sparse word lists, so a step costs in
 * proportion to the frontier, not the board. Solving hands the king and the knight, the pieces
 * of large-board questions, to their own kernels (`leapers.ts`, `knight-wide.ts` and its
 * WebAssembly build `knight-wide-wasm.ts`), and the sliders and the fairy pieces that only leap
 * and ride to the edge to the WebAssembly rides kernel (`rides-wasm.ts`, their moves from
 * `ride-moves.ts`), distance maps too; pawns, hoppers, limited rides (their rays as guarded
 * shifts, `fairy-fill.ts`, stepped by `fairy-step.ts`), and everything where WebAssembly is
 * refused, run here. A fairy solve with a single target stops one step early: once a frontier meets the squares
 * one move before the target (one cheap backward step from one square), the target is the
 * last layer, and the largest step of a rider's fill, the one that would find it, is skipped.
 */
import { lowestBit } from '../board/bitset.js';
import type { Geometry } from '../board/geometry.js';
import { Accumulator, noteGrowth, type SparseLayers, SparseWords } from '../board/words.js';
import { type FairyShifts, fairyShifts } from '../fairy/fairy-fill.js';
import { FairyStep } from '../fairy/fairy-step.js';
import { leaperGroupsOf } from '../fairy/leaper-groups.js';
import { fitsWideKnight, WideKnightFill } from '../kernels/knight-wide.js';
import { WasmWideKnightFill, wasmWideKnightAvailable } from '../kernels/knight-wide-wasm.js';
import { LeaperFill } from '../kernels/leapers.js';
import { WasmRideFill } from '../kernels/rides-wasm.js';
import { type Shift, SparseSlider } from '../kernels/slide.js';
import type { OrthodoxMover } from '../types.js';
import { type Mover, moveKind, pawnHomeRank } from './moves.js';
import { ridesOf } from './ride-moves.js';

/** The general fill for one board size; holds its scratch buffers, so it is not re-entrant. */
export class WordFill {
  private readonly out: Accumulator;
  private readonly slider: SparseSlider;
  private readonly fairyStep: FairyStep;
  private readonly frontiers: SparseWords;
  private readonly layers: SparseWords;
  private readonly visited: Int32Array;
  /** The target of a single-target fairy solve, and the squares one move before it. */
  private readonly targetList = new SparseWords(1);
  private readonly before: Accumulator;
  /** By orthodox piece: at most one list per piece, so bounded by construction. */
  private readonly shifts = new Map<string, Shift[]>();
  private leapers: LeaperFill | undefined = undefined;
  private wideKnight: WideKnightFill | undefined = undefined;
  private wasmWideKnight: WasmWideKnightFill | undefined = undefined;
  private wasmRides: WasmRideFill | undefined = undefined;
  /** The fairy piece's shifts for the passable set of the solve under way (set by `solve` and `distances`). */
  private fairy: FairyShifts | null = null;

  constructor(private readonly geo: Geometry) {
    const w = geo.words;
    this.out = new Accumulator(w);
    this.slider = new SparseSlider(w);
    this.fairyStep = new FairyStep(w, this.slider);
    this.frontiers = new SparseWords(w);
    this.layers = new SparseWords(w);
    this.visited = new Int32Array(w);
    this.before = new Accumulator(w);
  }

  /** The shifts of a leaper's jumps or a slider's directions on this board. */
  private shiftsOf(piece: OrthodoxMover, jumps: readonly (readonly [number, number])[]): Shift[] {
    let list = this.shifts.get(piece);
    if (list === undefined) {
      const geo = this.geo;
      list = jumps.map(([df, dr]) => ({
        delta: dr * geo.files + df,
        guard: df > 0 ? geo.notEastFiles[df - 1] : df < 0 ? geo.notWestFiles[-df - 1] : geo.all,
      }));
      this.shifts.set(piece, list);
      noteGrowth();
    }
    return list;
  }

  /** The WebAssembly rides kernel, made on first use (check `ridesOf` first). */
  private ridesFill(): WasmRideFill {
    this.wasmRides ??= grew(new WasmRideFill(this.geo));
    return this.wasmRides;
  }

  /**
   * ORs into `out` every passable square one move from a square of `src` entries `from .. to`
   * (or, with `reverse`, every passable square one move before one).
   */
  step(
    mover: Mover,
    src: SparseWords,
    from: number,
    to: number,
    passable: Int32Array,
    reverse: boolean,
    out: Accumulator,
  ): void {
    if (typeof mover !== 'string') {
      const fairy = this.fairy ?? fairyShifts(this.geo, mover, passable);
      this.fairyStep.step(fairy, src, from, to, passable, reverse, out);
      return;
    }
    const piece = mover;
    const moves = moveKind(piece);
    if (moves.kind === 'leaper') {
      // Jump sets are symmetric: the reverse step is the forward step.
      for (const s of this.shiftsOf(piece, moves.jumps)) out.orShifted(src, from, to, s.delta, s.guard);
      for (let i = 0; i < out.n; i++) {
        const w = out.touched[i];
        out.words[w] &= passable[w];
      }
    } else if (moves.kind === 'slider') {
      // A ray is symmetric too: u reaches v over passable squares iff v reaches u.
      for (const s of this.shiftsOf(piece, moves.directions)) this.slider.slide(src, from, to, s, passable, out);
    } else {
      this.pawnStep(moves.forward, src, from, to, passable, reverse, out);
    }
  }

  private pawnStep(
    forward: 1 | -1,
    src: SparseWords,
    from: number,
    to: number,
    passable: Int32Array,
    reverse: boolean,
    out: Accumulator,
  ): void {
    const geo = this.geo;
    const all = geo.all;
    const home = pawnHomeRank(forward, geo.ranks);
    const delta = (reverse ? -forward : forward) * geo.files;
    const single = this.slider.listA;
    this.slider.advance(src, from, to, delta, all, passable, single);
    for (let i = 0; i < single.n; i++) out.or(single.idx[i], single.val[i]);
    // Double step: forward from the home rank over two passable squares; backward, from the
    // rank two ahead of home over two passable squares.
    const startRank = geo.rank(reverse ? home + 2 * forward : home);
    const starts = this.slider.listB;
    starts.n = 0;
    for (let i = from; i < to; i++) {
      const v = src.val[i] & startRank[src.idx[i]];
      if (v !== 0) starts.push(src.idx[i], v);
    }
    if (starts.n === 0) return;
    this.slider.advance(starts, 0, starts.n, delta, all, passable, single);
    this.slider.advance(single, 0, single.n, delta, all, passable, starts);
    for (let i = 0; i < starts.n; i++) out.or(starts.idx[i], starts.val[i]);
  }

  /**
   * Solves one problem. Returns the distance D and the layers, or null when T' is unreachable
   * (including S' or T' empty). `sources` and `targets` must already be within `passable`.
   * With `webAssembly` false, the wide knight runs on its JavaScript kernel.
   */
  solve(
    piece: Mover,
    passable: Int32Array,
    sources: Int32Array,
    targets: Int32Array,
    webAssembly = true,
  ): { distance: number; layers: SparseLayers } | null {
    if (piece === 'KING' || piece === 'KNIGHT') {
      // On 64-bit units in WebAssembly both gain; in JavaScript a unit is two halves, and a
      // king's frontier is thin (it draws rings), so only the knight (whose frontier fills
      // regions) gains from the JavaScript unit fill.
      if (webAssembly && fitsWideKnight(this.geo) && wasmWideKnightAvailable()) {
        this.wasmWideKnight ??= grew(new WasmWideKnightFill(this.geo));
        return this.wasmWideKnight.solve(passable, sources, targets, piece);
      }
      if (piece === 'KNIGHT' && fitsWideKnight(this.geo)) {
        this.wideKnight ??= grew(new WideKnightFill(this.geo));
        return this.wideKnight.solve(passable, sources, targets);
      }
      this.leapers ??= grew(new LeaperFill(this.geo));
      return this.leapers.solve(piece, passable, sources, targets);
    }
    const sliding = webAssembly && typeof piece === 'string' ? ridesOf(this.geo, piece, null) : null;
    if (sliding !== null) return this.ridesFill().solve(sliding.forward, null, passable, sources, targets);
    const groups = typeof piece === 'string' ? null : leaperGroupsOf(piece);
    if (groups !== null) {
      this.leapers ??= grew(new LeaperFill(this.geo));
      return this.leapers.solve(groups, passable, sources, targets);
    }
    this.fairy = typeof piece === 'string' ? null : fairyShifts(this.geo, piece, passable);
    try {
      const rides = webAssembly && this.fairy !== null ? ridesOf(this.geo, piece, this.fairy) : null;
      if (rides !== null) return this.ridesFill().solve(rides.forward, rides.backward, passable, sources, targets);
      return this.fillLayers(piece, passable, sources, targets);
    } finally {
      this.fairy = null;
    }
  }

  /** `solve` for the pieces the general fill runs. */
  private fillLayers(
    piece: Mover,
    passable: Int32Array,
    sources: Int32Array,
    targets: Int32Array,
  ): { distance: number; layers: SparseLayers } | null {
    const frontiers = this.frontiers;
    const starts: number[] = [0];
    const reached = this.forward(piece, passable, sources, targets, starts, null);
    if (reached < 0) return null;
    const distance = reached;
    // Layers are built from L_D down to L_0 into `layers`, then copied in order.
    const layers = this.layers;
    layers.n = 0;
    const layerEnds: number[] = [];
    for (let i = starts[distance]; i < starts[distance + 1]; i++) {
      const v = frontiers.val[i] & targets[frontiers.idx[i]];
      if (v !== 0) layers.push(frontiers.idx[i], v);
    }
    layerEnds.push(layers.n);
    const out = this.out;
    for (let k = distance; k > 0; k--) {
      const from = k === distance ? 0 : layerEnds[distance - k - 1];
      this.step(piece, layers, from, layers.n, passable, true, out);
      for (let i = starts[k - 1]; i < starts[k]; i++) {
        const w = frontiers.idx[i];
        const v = frontiers.val[i] & out.words[w];
        if (v !== 0) layers.push(w, v);
      }
      out.clear();
      layerEnds.push(layers.n);
    }
    const start = new Int32Array(distance + 2);
    const idx = new Int32Array(layers.n);
    const val = new Int32Array(layers.n);
    let pos = 0;
    for (let k = 0; k <= distance; k++) {
      // Layer k was built (distance - k)-th.
      const j = distance - k;
      const from = j === 0 ? 0 : layerEnds[j - 1];
      const to = layerEnds[j];
      start[k] = pos;
      idx.set(layers.idx.subarray(from, to), pos);
      val.set(layers.val.subarray(from, to), pos);
      pos += to - from;
    }
    start[distance + 1] = pos;
    return { distance, layers: { start, idx, val } };
  }

  /**
   * dist(S', v) for every square, -1 where unreachable or not passable; the fill runs over the
   * whole board rather than stopping at a target.
   */
  distances(piece: Mover, passable: Int32Array, sources: Int32Array): Int32Array {
    const dist = new Int32Array(this.geo.n).fill(-1);
    const starts: number[] = [0];
    this.fairy = typeof piece === 'string' ? null : fairyShifts(this.geo, piece, passable);
    try {
      if ((piece === 'KING' || piece === 'KNIGHT') && fitsWideKnight(this.geo) && wasmWideKnightAvailable()) {
        this.wasmWideKnight ??= grew(new WasmWideKnightFill(this.geo));
        return this.wasmWideKnight.distances(passable, sources, piece);
      }
      const rides = ridesOf(this.geo, piece, this.fairy, true);
      if (rides !== null) return this.ridesFill().distances(rides.forward, passable, sources);
      this.forward(piece, passable, sources, null, starts, dist);
    } finally {
      this.fairy = null;
    }
    return dist;
  }

  /**
   * The forward fill. Appends each frontier to `this.frontiers` and its end to `starts`; stops
   * when a frontier meets `targets` (returns its step) or the fill stops (returns -1). With
   * `dist`, records each square's step.
   */
  private forward(
    piece: Mover,
    passable: Int32Array,
    sources: Int32Array,
    targets: Int32Array | null,
    starts: number[],
    dist: Int32Array | null,
  ): number {
    const frontiers = this.frontiers;
    const visited = this.visited;
    const out = this.out;
    frontiers.setFromDense(sources, 0, sources.length);
    visited.set(sources);
    starts.push(frontiers.n);
    const before = targets !== null && typeof piece !== 'string' ? this.beforeTarget(piece, targets, passable) : null;
    try {
      for (let k = 0; ; k++) {
        const from = starts[k];
        const to = starts[k + 1];
        if (to === from) return -1;
        if (dist !== null) recordStep(frontiers, from, to, k, dist);
        if (targets !== null) {
          for (let i = from; i < to; i++) if ((frontiers.val[i] & targets[frontiers.idx[i]]) !== 0) return k;
        }
        if (before !== null && k === 0 && before.isEmpty()) return -1; // no square moves to the target
        if (before !== null) {
          // The target is one move away: F_{k+1} ∩ T' is the target, and the rest of F_{k+1}
          // is never read, so the step (the largest of a rider's fill) is skipped.
          for (let i = from; i < to; i++) {
            if ((frontiers.val[i] & before.words[frontiers.idx[i]]) !== 0) {
              frontiers.push(this.targetList.idx[0], this.targetList.val[0]);
              starts.push(frontiers.n);
              return k + 1;
            }
          }
        }
        this.step(piece, frontiers, from, to, passable, false, out);
        for (let i = 0; i < out.n; i++) {
          const w = out.touched[i];
          const v = out.words[w] & ~visited[w];
          if (v !== 0) {
            visited[w] |= v;
            frontiers.push(w, v);
          }
        }
        out.clear();
        starts.push(frontiers.n);
      }
    } finally {
      visited.fill(0);
      this.before.clear();
    }
  }

  /**
   * For a fairy piece and a single target: the squares one move before it (in `this.before`),
   * so that the forward fill can stop a step early. Null for several targets or none.
   */
  private beforeTarget(piece: Mover, targets: Int32Array, passable: Int32Array): Accumulator | null {
    const list = this.targetList;
    list.setFromDense(targets, 0, targets.length);
    if (list.n !== 1 || (list.val[0] & (list.val[0] - 1)) !== 0) return null;
    this.step(piece, list, 0, 1, passable, true, this.before);
    return this.before;
  }
}

function recordStep(list: SparseWords, from: number, to: number, k: number, dist: Int32Array): void {
  for (let i = from; i < to; i++) {
    let v = list.val[i];
    const base = list.idx[i] << 5;
    while (v !== 0) {
      dist[base + lowestBit(v)] = k;
      v &= v - 1;
    }
  }
}

/** A kernel made on a fill's first solve of its kind: counted as growth of the fill's scratch. */
function grew<K>(kernel: K): K {
  noteGrowth();
  return kernel;
}
