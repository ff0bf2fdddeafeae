/**
 * The viewer's only way to the server: the public GraphQL API at `/graphql`, through an
 * `@urql/core` client (queries go as GET while short, which HTTP caches may keep; mutations as
 * POST). Each function returns data or a `Problem` that names the argument at fault. The
 * server's largest board side is read from its refusal of a board too wide (`askBoardLimit`).
 * A game's questions are in game-api.ts, on the same client.
 */

import { MAX_BOARD_SIDE } from '@chess-paths/engine';
import { Client, type CombinedError, cacheExchange, fetchExchange, gql } from '@urql/core';
import { asksBetza, type Piece, type Question } from './state.js';

/** A set of squares as the API returns it. */
export interface Squares {
  squares: string[];
}

/** A page of shortest paths. */
export interface PathsPage {
  edges: { cursor: string; node: Squares }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  totalCount: string;
}

/** The parts of a `PathResult` the viewer shows. */
export interface Result {
  /** The piece that moved: an orthodox one when a Betza text is one, else FAIRY. */
  piece: Piece;
  /** The canonical Betza text of the piece (null for pawns). */
  betza: string | null;
  board: { files: number; ranks: number };
  mask: string;
  reachable: boolean;
  distance: number | null;
  pathCount: string;
  sources: Squares;
  targets: Squares;
  layers: Squares[];
  path: Squares | null;
}

/** A piece of a position. */
export interface Placed {
  square: string;
  role: string;
  color: 'WHITE' | 'BLACK';
}

/** What went wrong: the message, and the argument it names (`fen`, `query.to[1]`), if any. */
export interface Problem {
  message: string;
  argument?: string;
  /** The server's largest board side, when the problem is a side over it (MAX_BOARD_SIDE). */
  boardLimit?: number;
}

/** An answer: the data, or a problem. */
export type Answer<T> = { ok: true; data: T } | { ok: false; problem: Problem };

/** A saved analysis, as listed and as opened. */
export interface AnalysisSummary {
  id: string;
  title: string;
  createdAt: string;
}

/** An opened analysis: its position, its results, and whether it keeps a game. */
export interface AnalysisDetail extends AnalysisSummary {
  fen: string | null;
  notes: string | null;
  results: Result[];
  game: { result: string } | null;
}

export const RESULT = `
  piece betza board { files ranks } mask reachable distance pathCount
  sources { squares } targets { squares } layers { squares } path { squares }
`;
const PAGE = `edges { cursor node { squares } } pageInfo { hasNextPage endCursor } totalCount`;

const SHORTEST = gql`query ViewerShortest($query: PathQuery!) { shortestPaths(query: $query) { ${RESULT} } }`;
const POSITION = gql`
  query ViewerPosition($fen: String!, $board: BoardInput, $from: Square!, $to: [Square!]!, $avoid: Boolean, $ask: Boolean!) {
    position(fen: $fen, board: $board) {
      pieces { square role color }
      paths(from: $from, to: $to, avoidAttacked: $avoid) @include(if: $ask) { ${RESULT} }
    }
  }`;
const SHORTEST_PAGE = gql`
  query ViewerPaths($query: PathQuery!, $first: Int, $after: String) {
    shortestPaths(query: $query) { paths(first: $first, after: $after) { ${PAGE} } }
  }`;
const POSITION_PAGE = gql`
  query ViewerPositionPaths($fen: String!, $board: BoardInput, $from: Square!, $to: [Square!]!, $avoid: Boolean, $first: Int, $after: String) {
    position(fen: $fen, board: $board) {
      paths(from: $from, to: $to, avoidAttacked: $avoid) { paths(first: $first, after: $after) { ${PAGE} } }
    }
  }`;
const SAVE = gql`
  mutation ViewerSave($input: SaveAnalysisInput!) {
    saveAnalysis(input: $input) { editToken analysis { id title createdAt } }
  }`;
const LIST = gql`
  query ViewerAnalyses($first: Int, $after: String) {
    analyses(first: $first, after: $after) {
      edges { node { id title createdAt } } pageInfo { hasNextPage endCursor } totalCount
    }
  }`;
const OPEN = gql`
  query ViewerAnalysis($id: ID!) {
    analysis(id: $id) { id title createdAt fen notes results { ${RESULT} } game { result } }
  }`;

export const client = new Client({
  url: new URL('/graphql', location.href).href,
  exchanges: [cacheExchange, fetchExchange],
});

/** The first problem of a urql error (of `errors`, its GraphQL errors that count). */
export function problemOf(error: CombinedError, errors = error.graphQLErrors): Problem {
  const first = errors[0];
  if (first) {
    const argument = first.extensions?.argument;
    const problem: Problem = { message: first.message, argument: typeof argument === 'string' ? argument : undefined };
    const limit = boardLimitOf(errors);
    if (limit !== null) problem.boardLimit = limit;
    return problem;
  }
  return { message: error.networkError ? `The server did not answer: ${error.networkError.message}` : error.message };
}

/** The largest board side a server's errors name (a `MAX_BOARD_SIDE` refusal carries it as `max`), or null. */
function boardLimitOf(errors: CombinedError['graphQLErrors']): number | null {
  for (const error of errors) {
    const { limit, max } = error.extensions ?? {};
    if (limit === 'MAX_BOARD_SIDE' && typeof max === 'number' && Number.isInteger(max) && max >= 1) return max;
  }
  return null;
}

// The API has no query for its limits: a board one file wider than the engine takes is over any
// server's MAX_BOARD_SIDE (at most 256), and the refusal names the limit. Nothing is solved.
const BOARD_LIMIT = gql`
  query ViewerBoardLimit($board: BoardInput!) {
    shortestPaths(query: { piece: KING, board: $board, from: [], to: [] }) { distance }
  }`;

/** The server's largest board side (its MAX_BOARD_SIDE), read from its refusal of a board too wide; null if unknown. */
export async function askBoardLimit(): Promise<number | null> {
  const board = { files: MAX_BOARD_SIDE + 1, ranks: 1 };
  const result = await client.query(BOARD_LIMIT, { board }, { requestPolicy: 'network-only' }).toPromise();
  return boardLimitOf(result.error?.graphQLErrors ?? []);
}

/** Response data, read by each caller in the shape its document selects. */
// biome-ignore lint/suspicious/noExplicitAny: each document's data is picked apart by its caller
export type Data = any;

/** Runs a query (or a mutation) and picks the data out. */
export async function run<T>(
  kind: 'query' | 'mutation',
  doc: ReturnType<typeof gql>,
  vars: object,
  pick: (d: Data) => T,
): Promise<Answer<T>> {
  const options = { requestPolicy: 'network-only' as const };
  const result =
    kind === 'query'
      ? await client.query(doc, vars, options).toPromise()
      : await client.mutation(doc, vars).toPromise();
  if (result.error) return { ok: false, problem: problemOf(result.error) };
  return { ok: true, data: pick(result.data) };
}

/** The API's `PathQuery` for a question without a position (with `betza` for a fairy piece). */
export function pathQuery(q: Question) {
  const board = { files: q.files, ranks: q.ranks };
  const query = { piece: q.piece, board, from: q.from, to: q.to, blocked: q.blocked };
  return asksBetza(q) ? { ...query, betza: q.betza } : query;
}

/** Variables of the position queries. */
function positionVars(q: Question) {
  return {
    fen: q.fen,
    board: { files: q.files, ranks: q.ranks },
    from: q.from[0] ?? 'a1',
    to: q.to,
    avoid: q.avoidAttacked,
  };
}

/** The answer to a question without a position. */
export function ask(q: Question): Promise<Answer<Result | null>> {
  return run('query', SHORTEST, { query: pathQuery(q) }, (d) => d.shortestPaths as Result | null);
}

/**
 * The pieces of a position, and the answer for its chosen piece once sources and targets are set.
 * A question the server refuses (`paths` null, an error naming it) still brings the pieces.
 */
export async function askPosition(
  q: Question,
  complete: boolean,
): Promise<{ pieces: Placed[]; result: Result | null; problem: Problem | null }> {
  const vars = { ...positionVars(q), ask: complete };
  const answer = await client.query(POSITION, vars, { requestPolicy: 'network-only' }).toPromise();
  const position = answer.data?.position;
  return {
    pieces: (position?.pieces ?? []) as Placed[],
    result: (position?.paths ?? null) as Result | null,
    problem: answer.error ? problemOf(answer.error) : null,
  };
}

/** One page of the shortest paths of a question. */
export function pathsPage(q: Question, first: number, after: string | null): Promise<Answer<PathsPage>> {
  if (q.fen) {
    return run('query', POSITION_PAGE, { ...positionVars(q), first, after }, (d) => d.position.paths.paths);
  }
  return run('query', SHORTEST_PAGE, { query: pathQuery(q), first, after }, (d) => d.shortestPaths.paths);
}

/** Saves questions (and a game's PGN) as an analysis; the answer holds the edit token, shown once. */
export function save(title: string, notes: string, fen: string, queries: object[], pgn?: string) {
  const input = { title, notes, fen: fen || null, queries, ...(pgn ? { pgn } : {}) };
  return run('mutation', SAVE, { input }, (d) => d.saveAnalysis as { editToken: string; analysis: AnalysisSummary });
}

/** A page of saved analyses, newest first. */
export function listAnalyses(first: number, after: string | null) {
  return run('query', LIST, { first, after }, (d) => ({
    items: (d.analyses.edges as { node: AnalysisSummary }[]).map((e) => e.node),
    hasNextPage: d.analyses.pageInfo.hasNextPage as boolean,
    endCursor: d.analyses.pageInfo.endCursor as string | null,
    totalCount: d.analyses.totalCount as number,
  }));
}

/** One saved analysis, or null when there is none with this id. */
export function openAnalysis(id: string) {
  return run('query', OPEN, { id }, (d) => d.analysis as AnalysisDetail | null);
}
