/**
 * The game mode's questions to the public API (api.ts holds the client): a game as its author
 * wrote it (tags, moves with their comments, marks and variations, how it ended, each piece's
 * journey), the maneuvers of its pieces, a route between two moves of a piece, and the game
 * written back as PGN with the maneuvers' annotations.
 *
 * GraphQL has no recursive selection, so variations are asked to a fixed depth: as deep as the
 * server's MAX_DEPTH lets the position of each move be read (three lines inside each other on
 * the default 10 for a pasted game, two for a saved one, whose query starts a level lower). At
 * the deepest level only the lines' count is asked, so the move list can say a deeper line
 * exists. A server with a lower MAX_DEPTH names its limit when it refuses, and the game is asked
 * again within it.
 */
import { gql } from '@urql/core';
import { type Answer, client, type Data, problemOf, RESULT, type Result, run } from './api.js';

/** One half-move of a game or of a variation. */
export interface PlyData {
  number: number;
  color: 'WHITE' | 'BLACK';
  san: string;
  uci: string;
  from: string;
  to: string;
  /** The position after it. */
  position: { fen: string };
  commentsBefore: string[];
  comments: string[];
  nags: number[];
  variations: VariationData[];
}

/** An author's line: its plies (absent past the depth asked), and why it stops early, if it does. */
export interface VariationData {
  plies?: PlyData[];
  stopped: string | null;
}

/** What happened to one piece of the start position. */
export interface JourneyData {
  role: string;
  color: 'WHITE' | 'BLACK';
  squares: string[];
  plies: number[];
  capturedAt: number | null;
  promotedTo: string | null;
}

/** How the last position ends a game on the board. */
export type BoardEnding = 'CHECKMATE' | 'STALEMATE' | 'INSUFFICIENT_MATERIAL';

/** A game as the viewer shows it. */
export interface GameData {
  tags: { name: string; value: string }[];
  start: { fen: string };
  plies: PlyData[];
  result: string;
  boardEnding: BoardEnding | null;
  termination: string | null;
  /** The author's comments after the last move. */
  comments: string[];
  journeys: JourneyData[];
  /** A saved game's PGN as the server writes it back (comments kept), to fill the PGN field. */
  text?: string;
}

/** How a maneuver, or a leg of it, compares with the shortest way. */
export type ManeuverVerdict = 'SHORTEST' | 'DETOUR' | 'CLOSED' | 'NOT_COMPARED';

/** A leg of a maneuver: up to a capture, or to its end. */
export interface LegData {
  squares: string[];
  plies: number[];
  verdict: ManeuverVerdict;
  notCompared: string | null;
  shortest: number | null;
  shortestPath: string[] | null;
  openDistance: number | null;
  openPath: string[] | null;
  closedBy: { ply: number; san: string } | null;
}

/** A piece's trip: two or more of its moves while its side moved nothing else. */
export interface ManeuverData {
  first: number;
  last: number;
  plies: number[];
  squares: string[];
  role: string;
  verdict: ManeuverVerdict;
  extraMoves: number | null;
  captures: number[];
  checks: number[];
  legs: LegData[];
  kingWalk: { safeDistance: number | null; safePath: string[] | null; attackedOnWalk: string[] } | null;
}

/** Where a game comes from: a pasted PGN, or a saved analysis (by id). */
export type GameSource = { pgn: string } | { analysis: string };

/** The fields of a ply, without its variations. */
const PLY = 'number color san uci from to position { fen } commentsBefore comments nags';

/** Plies with their variations `levels` deep (the deepest counted, not read); none below 0. */
function plyFields(levels: number): string {
  if (levels < 0) return PLY;
  let fields = `${PLY} variations { stopped }`;
  for (let i = 0; i < levels; i++) fields = `${PLY} variations { stopped plies { ${fields} } }`;
  return fields;
}

/** The depth of `plies` in each game query: under `game`, or under `analysis { game }`. */
const PLIES_DEPTH = { pgn: 2, analysis: 3 };

/** The server's MAX_DEPTH as far as the viewer knows: the default, until a refusal names another. */
let maxDepth = 10;

/** How many levels of variations a query with `plies` at `depth` can read, positions included. */
function levelsWithin(depth: number): number {
  // A ply's position's fen is 2 below its `plies`; each level adds `variations` and `plies`.
  return Math.floor((maxDepth - depth - 2) / 2);
}

/** The game query for a source, its variations as deep as the depth limit allows. */
function gameQuery(source: GameSource) {
  const saved = 'analysis' in source;
  const fields = `
    tags { name value } result boardEnding termination comments start { fen }
    plies { ${plyFields(levelsWithin(saved ? PLIES_DEPTH.analysis : PLIES_DEPTH.pgn))} }
    journeys { role color squares plies capturedAt promotedTo }`;
  // A saved game fills the PGN field again: the server's text keeps the author's comments.
  if (saved)
    return gql`query ViewerSavedGame($id: ID!) { analysis(id: $id) { game { ${fields} text: pgn(annotate: false) } } }`;
  return gql`query ViewerGame($pgn: String!) { game(pgn: $pgn) { ${fields} } }`;
}

/** The variables of a source's queries. */
function sourceVars(source: GameSource): { pgn: string } | { id: string } {
  return 'pgn' in source ? { pgn: source.pgn } : { id: source.analysis };
}

/** The game of a query's data. */
function gameOf(source: GameSource, data: Data): Data {
  return 'pgn' in source ? data?.game : data?.analysis?.game;
}

/** A game: read from a PGN (a bad one is a problem naming the move), or a saved analysis's (null: none). */
export async function askGame(source: GameSource): Promise<Answer<GameData | null>> {
  for (;;) {
    const result = await client
      .query(gameQuery(source), sourceVars(source), { requestPolicy: 'network-only' })
      .toPromise();
    const refusal = result.error?.graphQLErrors.find((e) => e.extensions?.limit === 'MAX_DEPTH');
    const max = refusal?.extensions?.max;
    // Asked again within the server's limit, once: a smaller limit than the one just used.
    if (typeof max === 'number' && Number.isInteger(max) && max < maxDepth) {
      maxDepth = max;
      continue;
    }
    if (result.error) return { ok: false, problem: problemOf(result.error) };
    return { ok: true, data: (gameOf(source, result.data) ?? null) as GameData | null };
  }
}

const MANEUVER = `
  first last plies squares role verdict extraMoves captures checks
  legs { squares plies verdict notCompared shortest shortestPath openDistance openPath closedBy { ply san } }
  kingWalk { safeDistance safePath attackedOnWalk }`;
const MANEUVERS_PGN = gql`query ViewerManeuvers($pgn: String!) { game(pgn: $pgn) { journeys { maneuvers { ${MANEUVER} } } } }`;
const MANEUVERS_SAVED = gql`
  query ViewerSavedManeuvers($id: ID!) { analysis(id: $id) { game { journeys { maneuvers { ${MANEUVER} } } } } }`;

/** The maneuvers of every piece of a game, by journey (asked apart from the game: a game shows without them). */
export function askManeuvers(source: GameSource): Promise<Answer<ManeuverData[][]>> {
  const doc = 'pgn' in source ? MANEUVERS_PGN : MANEUVERS_SAVED;
  return run('query', doc, sourceVars(source), (d) =>
    ((gameOf(source, d)?.journeys ?? []) as { maneuvers: ManeuverData[] }[]).map((j) => j.maneuvers),
  );
}

const PGN_PGN = gql`query ViewerGamePgn($pgn: String!) { game(pgn: $pgn) { pgn(annotate: true) } }`;
const PGN_SAVED = gql`query ViewerSavedGamePgn($id: ID!) { analysis(id: $id) { game { pgn(annotate: true) } } }`;

/** The game written back as PGN, the author's comments kept and each detour annotated with arrows. */
export function askAnnotatedPgn(source: GameSource): Promise<Answer<string | null>> {
  const doc = 'pgn' in source ? PGN_PGN : PGN_SAVED;
  return run('query', doc, sourceVars(source), (d) => (gameOf(source, d)?.pgn ?? null) as string | null);
}

// A route is a field of every journey: the one chosen is read, the others' answers (and their
// errors: most pieces lack those moves) are dropped.
const ROUTE = `journeys { route(first: $first, last: $last) { ${RESULT} } }`;
const ROUTE_PGN = gql`query ViewerRoute($pgn: String!, $first: Int!, $last: Int!) { game(pgn: $pgn) { ${ROUTE} } }`;
const ROUTE_SAVED = gql`
  query ViewerSavedRoute($id: ID!, $first: Int!, $last: Int!) { analysis(id: $id) { game { ${ROUTE} } } }`;

/** The route of journey `journey`'s moves `first` to `last` (1-based): its problem alone counts. */
export async function askRoute(
  source: GameSource,
  journey: number,
  first: number,
  last: number,
): Promise<Answer<Result | null>> {
  const doc = 'pgn' in source ? ROUTE_PGN : ROUTE_SAVED;
  const vars = { ...sourceVars(source), first, last };
  const result = await client.query(doc, vars, { requestPolicy: 'network-only' }).toPromise();
  const error = result.error;
  // An error under another journey is that piece's own (it lacks those moves): not ours.
  const other = (path: readonly (string | number)[] | undefined) => {
    const at = path?.indexOf('journeys') ?? -1;
    return at >= 0 && path?.[at + 1] !== journey;
  };
  const mine = error?.graphQLErrors.filter((e) => !other(e.path)) ?? [];
  if (error && (error.networkError || mine.length)) return { ok: false, problem: problemOf(error, mine) };
  const game = gameOf(source, result.data);
  return { ok: true, data: (game?.journeys?.[journey]?.route ?? null) as Result | null };
}
