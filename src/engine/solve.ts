/**
 * `solve` and its result. The forward and backward fills run eagerly, on the 8 x 8 fast path
 * (`fill64.ts`) or the general word-array fill (`fill.ts`), because distance and layers are
 * what nearly every caller reads. Everything else (key, text forms, path count, paths,
 * distance map) is computed on first read and kept, so a caller pays only for what it asks.
 */

import { parseWordsInto, WordSquareSet } from './bitset.js';
import { STANDARD_BOARD } from './board.js';
import { InputError } from './errors.js';
import { wordFillOf } from './fill.js';
import { BISHOP, BLACK_PAWN, KING, KNIGHT, layersOut, QUEEN, ROOK, solve64, WHITE_PAWN } from './fill64.js';
import { geometryOf } from './geometry.js';
import { DenseLayers, type LayerStore, PackedLayerStore, SparseLayerStore, StandardLayers } from './layers.js';
import { checkPacked, type PackedLayers } from './packed.js';
import { decodePathCursor, encodePathCursor, PathGraph } from './paths.js';
import { prepareStandard } from './prepare64.js';
import { allocateWords, Prepared, prepareCanonical, prepareQuery, type Words } from './query.js';
import { squareName } from './squares.js';
import type {
  Board,
  CanonicalProblem,
  Path,
  PathConnection,
  PathQuery,
  PathResult,
  Piece,
  SquareSet,
} from './types.js';

/** Words `offset .. offset + count` of `data` as a typed array (a view where possible). */
function wordsAt(data: Words, offset: number, count: number): Int32Array {
  return data instanceof Int32Array
    ? data.subarray(offset, offset + count)
    : Int32Array.from(data.slice(offset, offset + count));
}

/** Which fill to use: `auto` takes the 8 x 8 fast path on 8 x 8 boards. */
export interface SolveOptions {
  representation?: 'auto' | 'general';
}

/** The fast path's code of a piece (a switch on interned strings beats a keyed lookup). */
function fastCode(piece: Piece): number {
  switch (piece) {
    case 'KING':
      return KING;
    case 'QUEEN':
      return QUEEN;
    case 'ROOK':
      return ROOK;
    case 'BISHOP':
      return BISHOP;
    case 'KNIGHT':
      return KNIGHT;
    case 'WHITE_PAWN':
      return WHITE_PAWN;
    default:
      return BLACK_PAWN;
  }
}

const NO_LAYERS: LayerStore = new DenseLayers(new Int32Array(0), 0, 0);

/** What a `Solution` computes on first read, besides its layers and path count. */
interface Derived {
  sources?: SquareSet;
  targets?: SquareSet;
  squares?: SquareSet;
  graph?: PathGraph;
  path?: Path | null;
  distances?: (number | null)[];
}

/** A solved (or restored) query. Field names are the GraphQL `PathResult` fields. */
export class Solution implements PathResult {
  readonly piece: Piece;
  readonly board: Board;
  readonly reachable: boolean;
  readonly distance: number | null;
  readonly cached: boolean;
  private cachedLayers: SquareSet[] | undefined = undefined;
  private cachedCount: bigint | undefined;
  /** The rest of what is computed on first read, in an object of its own: a result read only for its distance and layers stays small and quick to build. */
  private derived: Derived | undefined = undefined;

  constructor(
    private readonly prepared: Prepared,
    private readonly store: LayerStore,
    cached: boolean,
    pathCount?: bigint,
  ) {
    this.piece = prepared.piece;
    this.board = prepared.board;
    this.reachable = store.count > 0;
    this.distance = store.count > 0 ? store.count - 1 : null;
    this.cached = cached;
    this.cachedCount = pathCount;
  }

  get key(): string {
    return this.prepared.key;
  }

  get problem(): CanonicalProblem {
    return this.prepared.problem;
  }

  get mask(): string {
    return this.prepared.problem.mask;
  }

  get sources(): SquareSet {
    return (this.lazy().sources ??= new WordSquareSet(this.board, this.prepared.data, this.prepared.words));
  }

  get targets(): SquareSet {
    return (this.lazy().targets ??= new WordSquareSet(this.board, this.prepared.data, 2 * this.prepared.words));
  }

  get layers(): SquareSet[] {
    if (this.cachedLayers !== undefined) return this.cachedLayers;
    if (this.store.views !== undefined) return (this.cachedLayers = this.store.views as SquareSet[]);
    const out: SquareSet[] = [];
    for (let k = 0; k < this.store.count; k++) out.push(this.store.layer(k, this.board));
    // Packed layers rebuild their views cheaply: a long-lived result keeps only its typed arrays.
    if (this.store.keepViews !== false) this.cachedLayers = out;
    return out;
  }

  get squares(): SquareSet {
    const derived = this.lazy();
    if (derived.squares === undefined) {
      const union = new Int32Array(this.prepared.words);
      for (let k = 0; k < this.store.count; k++) this.store.orInto(k, union);
      derived.squares = new WordSquareSet(this.board, union, 0);
    }
    return derived.squares;
  }

  /** The layered graph, built on first use by count, path and paths. */
  private graph(): PathGraph {
    return (this.lazy().graph ??= new PathGraph(
      this.piece,
      this.board,
      wordsAt(this.prepared.data, 0, this.prepared.words),
      this.layers,
    ));
  }

  get pathCount(): bigint {
    return (this.cachedCount ??= this.graph().count());
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
      const dist = wordFillOf(geometryOf(this.board)).distances(
        this.piece,
        wordsAt(data, 0, words),
        wordsAt(data, words, words),
      );
      derived.distances = Array.from(dist, (d) => (d < 0 ? null : d));
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

/** Solves a prepared problem. */
export function solvePrepared(prepared: Prepared, options?: SolveOptions): Solution {
  const { words, data, board, piece } = prepared;
  if (board === STANDARD_BOARD && options?.representation !== 'general') {
    const d = solve64(fastCode(piece), data[2], data[3], data[4], data[5], data[0], data[1]);
    if (d < 0) return new Solution(prepared, NO_LAYERS, false);
    return new Solution(prepared, new StandardLayers(layersOut(), d + 1), false);
  }
  const solved = wordFillOf(geometryOf(board)).solve(
    piece,
    wordsAt(data, 0, words),
    wordsAt(data, words, words),
    wordsAt(data, 2 * words, words),
  );
  return new Solution(prepared, solved === null ? NO_LAYERS : new SparseLayerStore(solved.layers), false);
}

/** Answers one path query. Throws `InputError` for bad input. */
export function solve(query: PathQuery, options?: SolveOptions): Solution {
  return solvePrepared(prepareStandard(query) ?? prepareQuery(query), options);
}

/**
 * Answers many queries at once, in order. Items may be raw queries or already prepared
 * problems (as a cache layer holds them). Items that describe the same problem are solved once
 * and share one result. An `InputError` names the query's position (`[3].from[1]`).
 */
export function solveBatch(queries: readonly (PathQuery | Prepared)[], options?: SolveOptions): Solution[] {
  const byIdentity = new Map<string, Solution>();
  return queries.map((query, i) => {
    let prepared: Prepared;
    try {
      prepared = query instanceof Prepared ? query : (prepareStandard(query) ?? prepareQuery(query));
    } catch (error) {
      throw error instanceof InputError ? error.under(i) : error;
    }
    const identity = prepared.identity;
    let result = byIdentity.get(identity);
    if (result === undefined) {
      result = solvePrepared(prepared, options);
      byIdentity.set(identity, result);
    }
    return result;
  });
}

/**
 * Rebuilds a result from a stored canonical problem and its layer bitboards, without solving
 * (`cached: true`). Throws an `Error` when the stored data is inconsistent.
 */
export function restoreResult(problem: CanonicalProblem, layers: readonly string[], pathCount?: bigint): Solution {
  const prepared = prepareCanonical(problem);
  const { words, data, board } = prepared;
  const n = board.files * board.ranks;
  const dense = allocateWords(words, layers.length);
  layers.forEach((text, k) => {
    if (typeof text !== 'string' || parseWordsInto(text, n, dense, k * words) !== null) {
      throw new Error(`stored layer ${k} is malformed`);
    }
    let any = 0;
    for (let w = 0; w < words; w++) {
      const v = dense[k * words + w];
      any |= v;
      if ((v & ~data[w]) !== 0) throw new Error(`stored layer ${k} leaves the mask`);
      if (k === 0 && (v & ~data[words + w]) !== 0) throw new Error('stored first layer is not within the sources');
      if (k === layers.length - 1 && (v & ~data[2 * words + w]) !== 0)
        throw new Error('stored last layer is not within the targets');
    }
    if (any === 0) throw new Error(`stored layer ${k} is empty`);
  });
  if (pathCount !== undefined && (typeof pathCount !== 'bigint' || pathCount < 0n))
    throw new Error('stored path count is invalid');
  return new Solution(prepared, new DenseLayers(dense, words, layers.length), true, pathCount);
}

/**
 * A result from packed layers computed elsewhere (a worker thread, a store). With `check`, the
 * layers are first checked against the problem (`checkPacked` throws an `Error` when they do not
 * fit it); without, they are trusted, as the engine's own output.
 */
export function solutionFromPacked(
  prepared: Prepared,
  packed: PackedLayers,
  options: { cached: boolean; pathCount?: bigint; check?: boolean },
): Solution {
  if (options.check) {
    checkPacked(packed, prepared);
    const { pathCount } = options;
    if (pathCount !== undefined && (typeof pathCount !== 'bigint' || pathCount < 0n))
      throw new Error('stored path count is invalid');
  }
  return new Solution(prepared, new PackedLayerStore(packed), options.cached, options.pathCount);
}
