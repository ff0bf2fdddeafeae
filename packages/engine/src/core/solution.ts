/**
 * The result of `solve`: a `PathResult` whose distance and layers are known when it is made and
 * whose other fields (key, text forms, path count, paths, distance map) are computed on first
 * read and kept, so a caller pays only for what it asks.
 *
 * `Solution` holds what every result shares. Its two kinds differ in where the layers live:
 * `StandardSolution` (`solution64.ts`) keeps an 8 x 8 answer in plain fields, so that a solve
 * makes as few objects as possible; `StoredSolution` reads them from a `LayerStore` (the general
 * fill's sparse words, a store's dense words, a worker's packed squares).
 */

import { ORTHODOX_BETZA } from '../betza/betza.js';
import { WordSquareSet } from '../board/bitset.js';
import { squareName } from '../board/squares.js';
import { InputError } from '../errors.js';
import type { Board, CanonicalProblem, Path, PathConnection, PathResult, Piece, SquareSet } from '../types.js';
import type { LayerStore } from './layers.js';
import { countPaths, decodePathCursor, encodePathCursor, PathGraph } from './paths.js';
import { type Prepared, wordsAt } from './query.js';
import { wordFillFor } from './word-fills.js';

/** What a `Solution` computes on first read. */
interface Derived {
  sources?: SquareSet;
  targets?: SquareSet;
  squares?: SquareSet;
  graph?: PathGraph;
  path?: Path | null;
  distances?: (number | null)[];
}

/** A solved (or restored) query. Field names are the GraphQL `PathResult` fields. */
export abstract class Solution implements PathResult {
  abstract readonly piece: Piece;
  abstract readonly board: Board;
  abstract readonly reachable: boolean;
  abstract readonly distance: number | null;
  abstract readonly layers: SquareSet[];
  abstract readonly cached: boolean;
  /** The path count, once computed or restored. */
  declare protected cachedCount: bigint | undefined;
  /** The rest of what is computed on first read, in an object of its own: a result read only for its distance and layers stays small and quick to build. */
  declare private derived: Derived | undefined;

  // Assigned, not class fields: V8 defines class fields in a separate initializer step, which
  // costs measurably on the 8 x 8 path's small results.
  constructor() {
    this.cachedCount = undefined;
    this.derived = undefined;
  }

  /** The normalised problem: P, S' and T' as words. */
  protected abstract get prepared(): Prepared;

  /** ORs every layer into `out` (dense words). */
  protected abstract orLayersInto(out: Int32Array): void;

  get key(): string {
    return this.prepared.key;
  }

  get betza(): string | null {
    return this.piece === 'FAIRY' ? (this.prepared.fairy?.betza ?? null) : (ORTHODOX_BETZA[this.piece] ?? null);
  }

  get problem(): CanonicalProblem {
    return this.prepared.problem;
  }

  get mask(): string {
    return this.prepared.problem.mask;
  }

  get sources(): SquareSet {
    const { data, words } = this.prepared;
    return (this.lazy().sources ??= new WordSquareSet(this.board, data, words));
  }

  get targets(): SquareSet {
    const { data, words } = this.prepared;
    return (this.lazy().targets ??= new WordSquareSet(this.board, data, 2 * words));
  }

  get squares(): SquareSet {
    const derived = this.lazy();
    if (derived.squares === undefined) {
      const union = new Int32Array(this.prepared.words);
      this.orLayersInto(union);
      derived.squares = new WordSquareSet(this.board, union, 0);
    }
    return derived.squares;
  }

  /** The layered graph, built on first use by count, path and paths. */
  private graph(): PathGraph {
    const { data, words } = this.prepared;
    return (this.lazy().graph ??= new PathGraph(this.prepared.mover, this.board, wordsAt(data, 0, words), this.layers));
  }

  get pathCount(): bigint {
    if (this.cachedCount === undefined) {
      const { data, words, mover } = this.prepared;
      this.cachedCount = countPaths(mover, this.board, wordsAt(data, 0, words), this.layers);
    }
    return this.cachedCount;
  }

  /** The path count if something already computed it (or it was restored), else undefined. */
  get knownPathCount(): bigint | undefined {
    return this.cachedCount;
  }

  get path(): Path | null {
    const derived = this.lazy();
    if (derived.path === undefined) {
      const first = this.graph().first();
      derived.path = first === null ? null : this.toPath(first);
    }
    return derived.path;
  }

  paths(args: { first?: number | null; after?: string | null } = {}): PathConnection {
    const page = this.pathPage(args);
    const edges = page.paths.map((indices) => ({ cursor: encodePathCursor(indices), node: this.toPath(indices) }));
    return {
      edges,
      pageInfo: {
        hasNextPage: page.hasNextPage,
        endCursor: edges.length === 0 ? null : edges[edges.length - 1].cursor,
      },
      totalCount: this.pathCount,
    };
  }

  /** A page of paths as square indices (what `paths` formats). */
  pathPage(args: { first?: number | null; after?: string | null } = {}): { paths: number[][]; hasNextPage: boolean } {
    const first = args.first ?? 10;
    if (!Number.isInteger(first) || first < 0) throw new InputError(['first'], first, 'is not a non-negative integer');
    const graph = this.graph();
    let current = args.after != null ? graph.next(decodePathCursor(args.after, graph)) : graph.first();
    const paths: number[][] = [];
    while (current !== null && paths.length < first) {
      paths.push(current);
      current = graph.next(current);
    }
    return { paths, hasNextPage: current !== null };
  }

  get distances(): (number | null)[] {
    const derived = this.lazy();
    if (derived.distances === undefined) {
      const { words, data } = this.prepared;
      const dist = wordFillFor(this.board).distances(
        this.prepared.mover,
        wordsAt(data, 0, words),
        wordsAt(data, words, words),
      );
      // A loop, not `Array.from(dist, map)`: on 256 x 256 that took 5 ms, this under 1.
      const distances = new Array<number | null>(dist.length);
      for (let i = 0; i < dist.length; i++) distances[i] = dist[i] < 0 ? null : dist[i];
      derived.distances = distances;
    }
    return derived.distances;
  }

  private lazy(): Derived {
    return (this.derived ??= {});
  }

  private toPath(indices: readonly number[]): Path {
    return { squares: indices.map((i) => squareName(i, this.board)) };
  }
}

/** A result whose layers live in a `LayerStore`: any board, restored or computed elsewhere. */
export class StoredSolution extends Solution {
  readonly piece: Piece;
  readonly board: Board;
  readonly reachable: boolean;
  readonly distance: number | null;
  private cachedLayers: SquareSet[] | undefined = undefined;

  constructor(
    protected readonly prepared: Prepared,
    private readonly store: LayerStore,
    readonly cached: boolean,
    pathCount?: bigint,
  ) {
    super();
    this.piece = prepared.piece;
    this.board = prepared.board;
    this.reachable = store.count > 0;
    this.distance = store.count > 0 ? store.count - 1 : null;
    this.cachedCount = pathCount;
  }

  get layers(): SquareSet[] {
    if (this.cachedLayers !== undefined) return this.cachedLayers;
    // Made at its length: a 256 x 256 answer has thousands of layers.
    const count = this.store.count;
    const out: SquareSet[] = new Array(count);
    for (let k = 0; k < count; k++) out[k] = this.store.layer(k, this.board);
    // Packed layers rebuild their views cheaply: a long-lived result keeps only its typed arrays.
    if (this.store.keepViews !== false) this.cachedLayers = out;
    return out;
  }

  protected orLayersInto(out: Int32Array): void {
    for (let k = 0; k < this.store.count; k++) this.store.orInto(k, out);
  }
}
