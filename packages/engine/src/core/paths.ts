/**
 * What a solved query's layers give when asked: the path count (`countPaths`, one sum a layer),
 * and through the layered graph (`PathGraph`) the lexicographically smallest path and paged
 * enumeration. Every move u -> v with u in L_k
 * and v in L_{k+1} lies on a shortest path, and every layer square continues to a target, so
 * a greedy walk never dead-ends: the first path takes the smallest square at every step, and
 * the next path after p changes the deepest position that has a larger sibling and then
 * continues greedily. Paging through millions of paths therefore keeps only the current path.
 */

import { InputError } from '../errors.js';
import type { Board, SquareSet } from '../types.js';
import { decodeBase64Url, encodeBase64Url } from '../util/base64url.js';
import { forEachMove, type Mover } from './moves.js';

/**
 * Reused by `countPaths`, which runs no caller's code: making two typed arrays cost more than
 * counting an 8 x 8 answer's paths. Boards beyond 64 x 64 make their own, which costs little
 * beside their count.
 */
const SCRATCH_SQUARES = 4096;
const scratchLayerOf = new Int32Array(SCRATCH_SQUARES);
const scratchCounts = new Float64Array(SCRATCH_SQUARES);

/**
 * The number of shortest paths: the paths to each layer square summed layer by layer over the
 * moves from the layer before. Counted in doubles while every count is below 2^53 (exact there,
 * and many times cheaper than BigInt); from the first layer with a larger count on, in BigInt.
 */
export function countPaths(mover: Mover, board: Board, passable: Int32Array, layers: readonly SquareSet[]): bigint {
  if (layers.length === 0) return 0n;
  const { files, ranks } = board;
  const n = files * ranks;
  const small = n <= SCRATCH_SQUARES;
  const layerOf = small ? scratchLayerOf.fill(-1, 0, n) : new Int32Array(n).fill(-1);
  const squares = layers.map((set, k) => {
    const indices = set.indices;
    for (const v of indices) layerOf[v] = k;
    return indices;
  });
  let exact: Float64Array | null = small ? scratchCounts.fill(0, 0, n) : new Float64Array(n);
  let big: bigint[] | null = null;
  for (const v of squares[0]) exact[v] = 1;
  for (let k = 1; k < squares.length; k++) {
    if (exact !== null) {
      const counts: Float64Array = exact;
      let from = 0;
      const add = (v: number) => {
        if (layerOf[v] === k) counts[v] += from;
      };
      for (const u of squares[k - 1]) {
        from = counts[u];
        forEachMove(mover, files, ranks, passable, u, add);
      }
      let overflow = false;
      for (const v of squares[k]) if (counts[v] > Number.MAX_SAFE_INTEGER) overflow = true;
      if (!overflow) continue;
      // The layer before is exact: this layer again, in BigInt.
      big = new Array<bigint>(n);
      for (const u of squares[k - 1]) big[u] = BigInt(counts[u]);
      exact = null;
    }
    const counts = big as bigint[];
    for (const v of squares[k]) counts[v] = 0n;
    for (const u of squares[k - 1]) {
      const from = counts[u];
      forEachMove(mover, files, ranks, passable, u, (v) => {
        if (layerOf[v] === k) counts[v] += from;
      });
    }
  }
  let total = 0n;
  const last = squares[squares.length - 1];
  if (exact !== null) {
    let sum = 0;
    for (const v of last) sum += exact[v];
    // Each count is exact; their sum may not be.
    if (sum <= Number.MAX_SAFE_INTEGER) return BigInt(sum);
    for (const v of last) total += BigInt(exact[v]);
    return total;
  }
  for (const v of last) total += (big as bigint[])[v];
  return total;
}

/** Layers L_0..L_D with their moves between consecutive layers. */
export class PathGraph {
  /** Layer of each square, -1 outside the layers. */
  private readonly layerOf: Int32Array;
  /** Position of each layer square within its (sorted) layer. */
  private readonly position: Int32Array;
  private readonly layerSquares: number[][];
  private readonly successorCache = new Map<number, number[]>();

  constructor(
    private readonly mover: Mover,
    private readonly board: Board,
    private readonly passable: Int32Array,
    layers: readonly SquareSet[],
  ) {
    const n = board.files * board.ranks;
    this.layerOf = new Int32Array(n).fill(-1);
    this.position = new Int32Array(n);
    this.layerSquares = layers.map((set, k) => {
      const squares = set.indices;
      squares.forEach((v, j) => {
        this.layerOf[v] = k;
        this.position[v] = j;
      });
      return squares;
    });
  }

  /** Squares of the next layer reachable in one move from u, increasing. */
  successors(u: number): number[] {
    let list = this.successorCache.get(u);
    if (list === undefined) {
      const next = this.layerOf[u] + 1;
      const found: number[] = [];
      forEachMove(this.mover, this.board.files, this.board.ranks, this.passable, u, (v) => {
        if (this.layerOf[v] === next) found.push(v);
      });
      list = found.sort((a, b) => a - b);
      this.successorCache.set(u, list);
    }
    return list;
  }

  /** The greedy completion of `prefix` (whose last square is in layer prefix.length - 1). */
  private complete(prefix: number[]): number[] {
    const path = prefix;
    while (path.length < this.layerSquares.length) path.push(this.successors(path[path.length - 1])[0]);
    return path;
  }

  /** The lexicographically smallest shortest path, or null when there is none. */
  first(): number[] | null {
    if (this.layerSquares.length === 0) return null;
    return this.complete([this.layerSquares[0][0]]);
  }

  /** The shortest path right after `path` in lexicographic order, or null. */
  next(path: readonly number[]): number[] | null {
    for (let i = path.length - 1; i >= 0; i--) {
      const siblings = i === 0 ? this.layerSquares[0] : this.successors(path[i - 1]);
      const larger = siblings.find((v) => v > path[i]);
      if (larger !== undefined) return this.complete([...path.slice(0, i), larger]);
    }
    return null;
  }

  /** True when `path` is a shortest path of this graph. */
  isPath(path: readonly number[]): boolean {
    if (path.length !== this.layerSquares.length || path.length === 0) return false;
    if (!path.every((v) => Number.isInteger(v) && v >= 0 && v < this.layerOf.length)) return false;
    if (this.layerOf[path[0]] !== 0) return false;
    for (let i = 1; i < path.length; i++) if (!this.successors(path[i - 1]).includes(path[i])) return false;
    return true;
  }
}

const CURSOR_PREFIX = 'path:';
const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** Opaque cursor of a path. */
export function encodePathCursor(path: readonly number[]): string {
  return encodeBase64Url(utf8Encoder.encode(CURSOR_PREFIX + path.join('.')));
}

/** The path a cursor names; throws `InputError` when `after` is not a cursor of `graph`. */
export function decodePathCursor(cursor: string, graph: PathGraph): number[] {
  const fail = (): never => {
    throw new InputError(['after'], cursor, 'is not a cursor of this result');
  };
  if (typeof cursor !== 'string' || cursor.length > 8 * 65536) fail();
  const text = utf8Decoder.decode(decodeBase64Url(cursor));
  if (!text.startsWith(CURSOR_PREFIX)) fail();
  const body = text.slice(CURSOR_PREFIX.length);
  const path = body === '' ? [] : body.split('.').map((part) => (/^\d{1,6}$/.test(part) ? Number(part) : -1));
  if (!graph.isPath(path)) fail();
  return path;
}
