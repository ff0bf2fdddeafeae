/**
 * The engine work the service hands out, as plain messages, and `runTask`, which does it. The same
 * function runs on a worker thread (`worker.ts`) for heavy work and on the main thread for work
 * too small to be worth the hop, so both give identical answers by construction.
 *
 * Every message is made of plain data and typed arrays: problems as their words (P, S', T'),
 * results as packed layers (the engine package's `packed.ts`), answers as strings, numbers and bigints,
 * a picture's PNG as bytes (`raster`: an SVG made into a PNG by `raster.ts`). Nothing crosses as an
 * object graph.
 *
 * A task is a list of items. Between items, `runTask` reads the request's engine account, shared
 * with the main thread through a SharedArrayBuffer (`engine-budget.ts`), and stops once it is spent, so
 * a request over ENGINE_BUDGET_MS stops its running tasks within one item, wherever they run;
 * the time of each item is added to that account as it finishes.
 */

import {
  type Board,
  decodeLayers,
  encodeLayers,
  encodePathCursor,
  InputError,
  type PackedLayers,
  type PathConnection,
  type Piece,
  Prepared,
  packLayers,
  playGame,
  readBetza,
  readPgn,
  renderAscii,
  resolveBoard,
  solutionFromPacked,
  solvePrepared,
  squareName,
} from '@chess-paths/engine';
import { drawSvg, type SvgOptions } from './pictures.js';
import { svgToPng } from './raster.js';

/** A page of paths as a worker sends it: `length` squares per path, back to back. */
export interface PageWire {
  squares: Uint16Array;
  length: number;
  hasNextPage: boolean;
  totalCount: bigint;
}

/**
 * A page of paths from its wire form. Each edge formats its cursor and squares when graphql-js
 * reads them, so the page is built a path at a time.
 */
export function pageFromWire(page: PageWire, board: Board): PathConnection {
  const count = page.length === 0 ? 0 : page.squares.length / page.length;
  const edges = Array.from({ length: count }, (_, j) => {
    const indices = page.squares.subarray(j * page.length, (j + 1) * page.length);
    return {
      get cursor() {
        return encodePathCursor(Array.from(indices));
      },
      node: {
        get squares() {
          return Array.from(indices, (i) => squareName(i, board));
        },
      },
    };
  });
  return {
    edges,
    pageInfo: { hasNextPage: page.hasNextPage, endCursor: count === 0 ? null : edges[count - 1].cursor },
    totalCount: page.totalCount,
  };
}

/** A prepared problem as words: what a worker needs to rebuild it (`problemOf`). */
export interface ProblemWire {
  piece: Piece;
  /** With FAIRY: the canonical Betza text (read again on the worker, where it is kept). */
  betza?: string;
  files: number;
  ranks: number;
  /** Words of one square set. */
  words: number;
  /** P, S' and T', `words` words each. */
  data: Int32Array | number[];
}

/** The lazy fields that may be computed off the main thread. */
export type LazyField = 'pathCount' | 'path' | 'paths' | 'distances' | 'ascii' | 'svg' | 'layerBitboards';

/** One lazy field of one result. */
export interface FieldItem {
  problem: ProblemWire;
  layers: PackedLayers;
  pathCount?: bigint;
  field: LazyField;
  first?: number | null;
  after?: string | null;
  /** How an `svg` field is drawn. */
  svg?: SvgOptions;
}

/** A game's PGN text to read, and the most half-moves it may have (MAX_PLIES). */
export interface GameItem {
  pgn: string;
  maxPlies: number;
}

/** What reading a game answers instead of it when it holds more half-moves than allowed. */
export interface OverPlies {
  overPlies: number;
}

/** A picture's SVG to make into a PNG `width` pixels wide, of at most `maxPixels` pixels. */
export interface RasterItem {
  svg: string;
  width: number;
  maxPixels: number;
}

/** A stored row to decode and check against its problem. */
export interface DecodeItem {
  problem: ProblemWire;
  layers: Uint8Array;
}

/**
 * The request's engine account in shared memory: spent microseconds in cell 0, and in cell 1 a
 * flag set when the request's work is cancelled.
 */
export interface BudgetCell {
  spent: Int32Array;
  /** The budget in microseconds; 0: none. */
  limitMicros: number;
}

/** Work for `runTask`. */
export type Task =
  | { kind: 'solve'; budget?: BudgetCell; items: ProblemWire[] }
  | { kind: 'decode'; budget?: BudgetCell; items: DecodeItem[] }
  | { kind: 'encode'; budget?: BudgetCell; items: PackedLayers[] }
  | { kind: 'field'; budget?: BudgetCell; items: FieldItem[] }
  | { kind: 'game'; budget?: BudgetCell; items: GameItem[] }
  | { kind: 'raster'; budget?: BudgetCell; items: RasterItem[] };

/** An item that failed: a user's input error (a bad cursor) or anything else. */
export interface ItemError {
  error: { message: string; input?: { path: (string | number)[]; value: unknown; reason: string } };
}

/** What `runTask` answers: one value per item done, in order; `stopped` when the budget ran out first. */
export interface TaskAnswer<V = unknown> {
  values: (V | ItemError)[];
  stopped: boolean;
}

/** The rebuilt prepared problem of a wire problem. */
export function problemOf(wire: ProblemWire): Prepared {
  const board = resolveBoard({ files: wire.files, ranks: wire.ranks });
  const fairy = wire.betza === undefined ? null : readBetza(wire.betza);
  return new Prepared(wire.piece, board, wire.words, wire.data, fairy);
}

/** The wire form of a prepared problem. */
export function wireOf(prepared: Prepared): ProblemWire {
  const { piece, board, words, data, fairy } = prepared;
  const wire: ProblemWire = { piece, files: board.files, ranks: board.ranks, words, data };
  if (fairy !== null) wire.betza = fairy.betza;
  return wire;
}

/** True when the account is spent or the work cancelled. */
export function spent(budget: BudgetCell | undefined): boolean {
  if (budget === undefined) return false;
  return (
    Atomics.load(budget.spent, 1) !== 0 ||
    (budget.limitMicros > 0 && Atomics.load(budget.spent, 0) >= budget.limitMicros)
  );
}

/** Adds `micros` to the account. */
export function charge(budget: BudgetCell | undefined, micros: number): void {
  if (budget) Atomics.add(budget.spent, 0, Math.min(0x3fffffff, Math.ceil(micros)));
}

function itemError(err: unknown): ItemError {
  if (err instanceof InputError) {
    return {
      error: { message: err.message, input: { path: [...err.argument], value: err.value, reason: err.reason } },
    };
  }
  return { error: { message: err instanceof Error ? err.message : String(err) } };
}

/** True for an `ItemError`. */
export function isItemError(value: unknown): value is ItemError {
  return typeof value === 'object' && value !== null && 'error' in value && Object.keys(value).length === 1;
}

/** The error an `ItemError` describes (an `InputError` again for a user's input). */
export function errorOf(item: ItemError): Error {
  const { message, input } = item.error;
  if (!input) return new Error(message);
  const error = new InputError(input.path, input.value, input.reason);
  error.message = message; // as worded where it was made (a game's error names the move, not a value)
  return error;
}

function solveOne(wire: ProblemWire): PackedLayers {
  return packLayers(solvePrepared(problemOf(wire)));
}

function decodeOne(item: DecodeItem): PackedLayers {
  const prepared = problemOf(item.problem);
  const packed = decodeLayers(item.layers, item.problem.files * item.problem.ranks);
  solutionFromPacked(prepared, packed, { cached: true, check: true });
  return packed;
}

function fieldOf(item: FieldItem): unknown {
  const result = solutionFromPacked(problemOf(item.problem), item.layers, { cached: false, pathCount: item.pathCount });
  switch (item.field) {
    case 'pathCount':
      return result.pathCount;
    case 'path':
      return result.path;
    case 'paths': {
      // Square indices, one typed array for the page: no object graph crosses threads.
      const page = result.pathPage({ first: item.first, after: item.after });
      const length = result.layers.length;
      const squares = new Uint16Array(page.paths.length * length);
      for (let j = 0; j < page.paths.length; j++) squares.set(page.paths[j], j * length);
      return { squares, length, hasNextPage: page.hasNextPage, totalCount: result.pathCount } satisfies PageWire;
    }
    case 'distances': {
      // A loop, not `Int32Array.from(list, map)`: several times faster on large boards.
      const list = result.distances;
      const dist = new Int32Array(list.length);
      for (let i = 0; i < list.length; i++) dist[i] = list[i] ?? -1;
      return dist;
    }
    case 'ascii':
      return renderAscii(result);
    case 'svg':
      return drawSvg(result, item.svg);
    case 'layerBitboards':
      return result.layers.map((layer) => layer.bitboard);
  }
}

/**
 * Reads a game's text, then plays it unless it holds more than `maxPlies` half-moves, its
 * variations' included (counted before any move is played, so an over-long game costs its
 * reading only).
 */
function readGameItem(item: GameItem): unknown {
  const text = readPgn(item.pgn);
  if (text.moveCount > item.maxPlies) return { overPlies: text.moveCount } satisfies OverPlies;
  // Every FEN written as the moves are played: the answer crosses to the main thread as plain data.
  return playGame(text, { fens: 'at-once' });
}

/** Does the work of one item. */
function runItem(task: Task, index: number): unknown {
  switch (task.kind) {
    case 'solve':
      return solveOne(task.items[index]);
    case 'decode':
      return decodeOne(task.items[index]);
    case 'encode':
      return encodeLayers(task.items[index]);
    case 'field':
      return fieldOf(task.items[index]);
    case 'game':
      return readGameItem(task.items[index]);
    case 'raster': {
      const { svg, width, maxPixels } = task.items[index];
      return svgToPng(svg, { width, maxPixels });
    }
  }
}

/** Runs a task's items in order until done or until the request's budget is spent. */
export function runTask(task: Task): TaskAnswer {
  const values: unknown[] = [];
  for (let i = 0; i < task.items.length; i++) {
    if (spent(task.budget)) return { values, stopped: true };
    const started = performance.now();
    try {
      values.push(runItem(task, i));
    } catch (err) {
      values.push(itemError(err));
    } finally {
      charge(task.budget, (performance.now() - started) * 1000);
    }
  }
  return { values, stopped: false };
}
