/**
 * Shared helpers of the engine's correctness tests: random queries (with the reference's view of
 * the same problem), and field-by-field comparisons of an engine `PathResult` with the reference
 * BFS (reference-bfs.ts) or with another `PathResult`. Everything the engine returns is checked:
 * S', T', mask, reachable, distance, layers, squares, pathCount, path, pages of `paths` (walking
 * cursors), distances, key and problem.
 */

import fc from 'fast-check';
import { expect } from 'vitest';
import type { PathQuery, PathResult, SquareSet } from '../../src/types.js';
import {
  REFERENCE_PIECES,
  type ReferenceAnswer,
  type ReferenceBoard,
  type ReferencePiece,
  type ReferenceProblem,
  referenceFormatHex,
  referenceIndicesOf,
  referenceParseHex,
  referenceParseSquare,
  referenceSquareName,
} from './reference-bfs.js';

/** A query for the engine together with the same problem in reference terms. */
export interface GeneratedCase {
  readonly query: PathQuery;
  readonly problem: ReferenceProblem;
}

/** Small deterministic PRNG (mulberry32), so big obstacle sets cost one integer to generate. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How obstacles reach the engine: not at all, as mask bits, as blocked names, or split. */
export type ObstacleStyle = 'none' | 'mask' | 'blocked' | 'both';
/** How square names are spelled in the query (the engine must be case-insensitive). */
export type NameStyle = 'lower' | 'upper' | 'mixed';
/** How mask text is spelled: canonical, trimmed leading zeros, or upper-case digits. */
export type HexStyle = 'canonical' | 'trimmed' | 'upper';

export interface CaseRecipe {
  piece: ReferencePiece;
  files: number;
  ranks: number;
  /** Percentage of impassable squares, 0..100. */
  density: number;
  obstacleSeed: number;
  obstacleStyle: ObstacleStyle;
  /** Raw picks, reduced modulo files*ranks. */
  sourcePicks: number[];
  targetPicks: number[];
  /** When set, the first target is moved onto the first source's file (helps pawns and rooks). */
  alignFirstTarget: boolean;
  nameStyle: NameStyle;
  hexStyle: HexStyle;
  /** On 8 x 8, leave `board` out instead of spelling it (the default must be 8 x 8). */
  omitStandardBoard: boolean;
}

/** Spells a square name in the given style. */
export function styledName(index: number, board: ReferenceBoard, style: NameStyle, salt = 0): string {
  const name = referenceSquareName(index, board);
  if (style === 'lower') return name;
  if (style === 'upper') return name.toUpperCase();
  return [...name].map((c, i) => ((i + salt + index) % 2 === 0 ? c.toUpperCase() : c)).join('');
}

/** Spells a square set's text in the given style. */
export function styledHex(member: readonly boolean[], board: ReferenceBoard, style: HexStyle): string {
  const canonical = referenceFormatHex(member, board);
  if (style === 'canonical') return canonical;
  if (style === 'upper') return `0x${canonical.slice(2).toUpperCase()}`;
  const trimmed = canonical.slice(2).replace(/^0+/, '');
  return `0x${trimmed === '' ? '0' : trimmed}`;
}

/** Builds the engine query and the reference problem from a recipe. */
export function buildCase(recipe: CaseRecipe): GeneratedCase {
  const { piece, files, ranks } = recipe;
  const board = { files, ranks };
  const squareCount = files * ranks;
  // Two streams: which squares are obstacles depends only on the seed and density, so the same
  // recipe spelled with another obstacle style describes the same passable set.
  const random = seededRandom(recipe.obstacleSeed);
  const splitRandom = seededRandom(recipe.obstacleSeed ^ 0x5bd1e995);

  const passable = new Array<boolean>(squareCount).fill(true);
  const maskBits = new Array<boolean>(squareCount).fill(true);
  const blockedIndices: number[] = [];
  if (recipe.obstacleStyle !== 'none') {
    for (let square = 0; square < squareCount; square++) {
      if (random() * 100 >= recipe.density) continue;
      passable[square] = false;
      const viaMask = recipe.obstacleStyle === 'mask' || (recipe.obstacleStyle === 'both' && splitRandom() < 0.5);
      if (viaMask) maskBits[square] = false;
      else blockedIndices.push(square);
    }
    // A blocked name may repeat or name a square the mask already removes; both are harmless.
    if (blockedIndices.length > 0 && splitRandom() < 0.3) blockedIndices.push(blockedIndices[0]);
    if (recipe.obstacleStyle === 'both') {
      const extra = maskBits.findIndex((bit) => !bit);
      if (extra >= 0) blockedIndices.push(extra);
    }
  }

  const sources = recipe.sourcePicks.map((pick) => pick % squareCount);
  const targets = recipe.targetPicks.map((pick) => pick % squareCount);
  if (recipe.alignFirstTarget) {
    const sourceFile = sources[0] % files;
    targets[0] = targets[0] - (targets[0] % files) + sourceFile;
  }

  const query: PathQuery = {
    piece,
    from: sources.map((index, i) => styledName(index, board, recipe.nameStyle, i)),
    to: targets.map((index, i) => styledName(index, board, recipe.nameStyle, i + 1)),
  };
  if (!(recipe.omitStandardBoard && files === 8 && ranks === 8)) query.board = { files, ranks };
  if (recipe.obstacleStyle === 'mask' || recipe.obstacleStyle === 'both') {
    query.mask = styledHex(maskBits, board, recipe.hexStyle);
  }
  if (recipe.obstacleStyle === 'blocked' || recipe.obstacleStyle === 'both') {
    query.blocked = blockedIndices.map((index, i) => styledName(index, board, recipe.nameStyle, i));
  }
  return { query, problem: { piece, files, ranks, passable, sources, targets } };
}

/** Board sizes biased toward small boards and 8 x 8, up to 40 x 40. */
export const boardSizeArbitrary: fc.Arbitrary<{ files: number; ranks: number }> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ files: fc.integer({ min: 1, max: 5 }), ranks: fc.integer({ min: 1, max: 5 }) }) },
  { weight: 4, arbitrary: fc.constant({ files: 8, ranks: 8 }) },
  {
    weight: 2,
    arbitrary: fc.record({ files: fc.integer({ min: 1, max: 12 }), ranks: fc.integer({ min: 1, max: 12 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ files: fc.integer({ min: 1, max: 40 }), ranks: fc.integer({ min: 1, max: 40 }) }),
  },
);

/** Recipes on the given board sizes; densities 0..60 %, 1..4 sources and targets. */
export function recipeArbitrary(
  boards: fc.Arbitrary<{ files: number; ranks: number }> = boardSizeArbitrary,
): fc.Arbitrary<CaseRecipe> {
  return fc
    .record({
      piece: fc.constantFrom(...REFERENCE_PIECES),
      board: boards,
      density: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 60 })),
      obstacleSeed: fc.integer({ min: 0, max: 0x7fffffff }),
      obstacleStyle: fc.constantFrom<ObstacleStyle>('none', 'mask', 'blocked', 'both'),
      sourcePicks: fc.array(fc.nat({ max: 1 << 20 }), { minLength: 1, maxLength: 4 }),
      targetPicks: fc.array(fc.nat({ max: 1 << 20 }), { minLength: 1, maxLength: 4 }),
      alignFirstTarget: fc.boolean(),
      nameStyle: fc.constantFrom<NameStyle>('lower', 'lower', 'upper', 'mixed'),
      hexStyle: fc.constantFrom<HexStyle>('canonical', 'canonical', 'trimmed', 'upper'),
      omitStandardBoard: fc.boolean(),
    })
    .map(({ board, ...rest }) => ({ ...rest, files: board.files, ranks: board.ranks }));
}

export const caseArbitrary = (boards?: fc.Arbitrary<{ files: number; ranks: number }>): fc.Arbitrary<GeneratedCase> =>
  recipeArbitrary(boards).map(buildCase);

/** A `SquareSet` must show exactly these indices in every view. */
export function expectSquareSet(
  actual: SquareSet,
  indices: readonly number[],
  board: ReferenceBoard,
  label: string,
): void {
  expect(actual.indices, `${label}.indices`).toEqual(indices);
  expect(actual.squares, `${label}.squares`).toEqual(indices.map((index) => referenceSquareName(index, board)));
  expect(actual.bitboard, `${label}.bitboard`).toBe(referenceFormatHex(indices, board));
  expect(actual.count, `${label}.count`).toBe(indices.length);
}

const pathNames = (path: readonly number[], board: ReferenceBoard) =>
  path.map((index) => referenceSquareName(index, board));

/**
 * Walks up to `pageCount` pages of `result.paths({first: pageSize})` following `endCursor`, and
 * checks each page against the reference's lexicographic enumeration, then restarts once from the
 * cursor of an edge in the middle of the first page.
 */
export function expectPagesMatchReference(
  result: PathResult,
  answer: ReferenceAnswer,
  board: ReferenceBoard,
  pageSize: number,
  pageCount: number,
): void {
  const expected = answer.firstPaths(pageSize * (pageCount + 1)).map((path) => pathNames(path, board));
  let after: string | null = null;
  let firstPageCursors: string[] = [];
  for (let page = 0; page < pageCount; page++) {
    const connection = result.paths({ first: pageSize, after });
    const label = `paths page ${page} (first ${pageSize})`;
    expect(connection.totalCount, `${label}.totalCount`).toBe(answer.pathCount);
    const expectedPage = expected.slice(page * pageSize, (page + 1) * pageSize);
    expect(
      connection.edges.map((edge) => edge.node.squares),
      `${label}.edges`,
    ).toEqual(expectedPage);
    const seen = BigInt((page + 1) * pageSize);
    expect(connection.pageInfo.hasNextPage, `${label}.hasNextPage`).toBe(answer.pathCount > seen);
    const lastEdge = connection.edges.at(-1);
    expect(connection.pageInfo.endCursor, `${label}.endCursor`).toBe(lastEdge === undefined ? null : lastEdge.cursor);
    if (page === 0) firstPageCursors = connection.edges.map((edge) => edge.cursor);
    if (!connection.pageInfo.hasNextPage) break;
    after = connection.pageInfo.endCursor;
  }
  if (firstPageCursors.length >= 2) {
    // Any edge's cursor resumes right after that edge.
    const middle = Math.floor((firstPageCursors.length - 1) / 2);
    const resumed = result.paths({ first: pageSize, after: firstPageCursors[middle] });
    expect(
      resumed.edges.map((edge) => edge.node.squares),
      `paths after edge ${middle}`,
    ).toEqual(expected.slice(middle + 1, middle + 1 + pageSize));
  }
}

export interface CompareOptions {
  pageSize?: number;
  pageCount?: number;
  /** Skip comparing the distance map (it is the costliest field on huge boards). */
  skipDistances?: boolean;
}

/** Every field of an engine result against the reference's answer to the same problem. */
export function expectResultMatchesReference(
  result: PathResult,
  problem: ReferenceProblem,
  answer: ReferenceAnswer,
  options: CompareOptions = {},
): void {
  const board = { files: problem.files, ranks: problem.ranks };
  expect(result.piece).toBe(problem.piece);
  expect({ files: result.board.files, ranks: result.board.ranks }).toEqual(board);
  expect(result.mask, 'mask').toBe(referenceFormatHex(problem.passable, board));
  expectSquareSet(result.sources, answer.sources, board, 'sources');
  expectSquareSet(result.targets, answer.targets, board, 'targets');
  expect(result.reachable, 'reachable').toBe(answer.reachable);
  expect(result.distance, 'distance').toBe(answer.distance);
  expect(result.layers.length, 'layers.length').toBe(answer.layers.length);
  answer.layers.forEach((layer, k) => {
    expectSquareSet(result.layers[k], layer, board, `layers[${k}]`);
  });
  expectSquareSet(result.squares, answer.squares, board, 'squares');
  expect(result.pathCount, 'pathCount').toBe(answer.pathCount);
  expect(result.path === null ? null : result.path.squares, 'path').toEqual(
    answer.path === null ? null : pathNames(answer.path, board),
  );
  expectPagesMatchReference(result, answer, board, options.pageSize ?? 3, options.pageCount ?? 3);
  if (!options.skipDistances) expect(result.distances, 'distances').toEqual(answer.distances);
  expect(result.key, 'key').toMatch(/^[0-9a-f]{64}$/);
  expect(result.problem, 'problem').toEqual({
    piece: problem.piece,
    files: problem.files,
    ranks: problem.ranks,
    mask: referenceFormatHex(problem.passable, board),
    sources: referenceFormatHex(answer.sources, board),
    targets: referenceFormatHex(answer.targets, board),
  });
}

/** A plain snapshot of every field, with `pageCount` pages of `pageSize` paths (cursors left out). */
export function snapshotResult(result: PathResult, pageSize = 3, pageCount = 3) {
  const setView = (set: SquareSet) => ({
    bitboard: set.bitboard,
    squares: set.squares,
    count: set.count,
    indices: set.indices,
  });
  const pages: { paths: string[][]; hasNextPage: boolean; totalCount: bigint; hasEndCursor: boolean }[] = [];
  let after: string | null = null;
  for (let page = 0; page < pageCount; page++) {
    const connection = result.paths({ first: pageSize, after });
    pages.push({
      paths: connection.edges.map((edge) => edge.node.squares),
      hasNextPage: connection.pageInfo.hasNextPage,
      totalCount: connection.totalCount,
      hasEndCursor: connection.pageInfo.endCursor !== null,
    });
    if (!connection.pageInfo.hasNextPage) break;
    after = connection.pageInfo.endCursor;
  }
  return {
    key: result.key,
    piece: result.piece,
    board: { files: result.board.files, ranks: result.board.ranks },
    mask: result.mask,
    sources: setView(result.sources),
    targets: setView(result.targets),
    reachable: result.reachable,
    distance: result.distance,
    layers: result.layers.map(setView),
    squares: setView(result.squares),
    pathCount: result.pathCount,
    path: result.path === null ? null : result.path.squares,
    pages,
    distances: result.distances,
    cached: result.cached,
    problem: { ...result.problem },
  };
}

/** The reference's canonical problem text, to predict when two queries must share a key. */
export function referenceCanonical(problem: ReferenceProblem): string {
  const board = { files: problem.files, ranks: problem.ranks };
  const member = (indices: readonly number[]) =>
    referenceIndicesOf(
      Array.from({ length: problem.files * problem.ranks }, (_, i) => indices.includes(i) && problem.passable[i]),
    );
  return JSON.stringify([
    problem.piece,
    problem.files,
    problem.ranks,
    referenceFormatHex(problem.passable, board),
    referenceFormatHex(member(problem.sources), board),
    referenceFormatHex(member(problem.targets), board),
  ]);
}

/**
 * The reference's reading of a hand-written query (names, mask, blocked; no FEN): the same
 * problem as the engine should see it. Throws on input the reference cannot read.
 */
export function referenceProblemOfQuery(query: PathQuery): ReferenceProblem {
  const board = { files: query.board?.files ?? 8, ranks: query.board?.ranks ?? 8 };
  const index = (name: string) => {
    const found = referenceParseSquare(name, board);
    if (found === null) throw new Error(`reference cannot read square ${name}`);
    return found;
  };
  let passable = new Array<boolean>(board.files * board.ranks).fill(true);
  if (query.mask != null) {
    const parsed = referenceParseHex(query.mask, board);
    if (parsed === null) throw new Error(`reference cannot read mask ${query.mask}`);
    passable = parsed;
  }
  for (const name of query.blocked ?? []) passable[index(name)] = false;
  if (query.piece === 'FAIRY') throw new Error('the orthodox reference has no fairy pieces: use referenceFairySolve');
  return {
    piece: query.piece,
    files: board.files,
    ranks: board.ranks,
    passable,
    sources: query.from.map(index),
    targets: query.to.map(index),
  };
}
