/**
 * The cost of the operation that will run, and an estimate of its engine work, computed in
 * Apollo's `didResolveOperation`: the document is parsed and validated, the operation chosen and
 * the variables known, and nothing has run. (A validation rule, as graphql-armor's costLimit runs,
 * never sees variables: `paths(first: $n)` was costed as `first: 1`, lists not at all.)
 *
 * COST (MAX_COST) is graphql-armor's model with its defaults, kept exactly for literal arguments:
 * a leaf costs 1; a field with a selection, or an inline fragment, (2 + 1.5 x its children) x m;
 * a fragment spread 1 + 1.5 x (2 + 1.5 x the fragment's children); `__schema` 0; directives are
 * not looked at. The multiplier m (armor: the literal `first`/`last` only), at least 1 and at most
 * MAX_PAGE_SIZE or MAX_BATCH_SIZE (the resolvers refuse more, naming the limit):
 * - a connection's (`paths`, `analyses`) `first`/`last`: literal, variable, the variable's
 *   default, else the schema default (10, 20); an argument of that name elsewhere is no page
 *   (`route(first, last)` is one route);
 * - `shortestPathsBatch(queries:)`: its number of queries, literal or from variables;
 * - `Analysis.results`: the input's queries after `saveAnalysis`/`updateAnalysis` with queries;
 *   stored ones are unknown before execution, so 1 (armor's list), their work counted at its upper
 *   bound below (the request is heavy and waits for admission; at run time the engine budget and
 *   MAX_RESPONSE_BYTES hold it, as they hold a path question's);
 * - `Game.plies`: the half-moves of `game(pgn:)` (variations' included) by the game reader's own
 *   tokenizer; of a stored game (`Analysis.game`), 1, its work counted at MAX_PLIES.
 * The seed example costs 14; a batch of 500 asking `distance layers { squares }` 4,375.
 *
 * WORK (admission control) is in board squares, roughly engine time (a square of flood fill):
 *   work = sum over path questions of squares(question) x (1 + units of the fields beneath)
 * - questions: `shortestPaths` 1; `shortestPathsBatch` one a query; `Position.paths` one on the
 *   position's board; `Analysis.results` the input's queries, else MAX_BATCH_SIZE unknown ones;
 *   times the m of the fields above, per alias;
 * - squares(question): files x ranks (default 64, MAX_BOARD_SIDE^2 when unknown, each side
 *   clamped) x the mover's weight (`cost-inputs.ts`: 1, or a fairy piece's rays over a queen's);
 *   a fairy question adds BETZA_READ_WORK once, for reading its text;
 * - units: `pathCount`, `path`, `distances`, `squares`, `overlay { ascii asciiLines shapes pgn }`
 *   and every square set's `bitboard` / `squares` 1 each; `overlay { svg }` 4, plus the position's
 *   piece units (64 squares a piece drawn, over the board); `paths` its page size;
 *   `Position.paths(avoidAttacked: true)` 1;
 * - `game(pgn)` adds the reading of its text (`gameReadWeight`: half-moves x PLY_WEIGHT plus
 *   characters x PGN_CHAR_WEIGHT), `Analysis.game` one of MAX_PLIES in MAX_PGN_BYTES; `plies`
 *   counts the half-moves, `journeys` 64; `Journey.route` is an 8 x 8 question;
 *   `Journey.maneuvers` and `Game.pgn` four 8 x 8 solves a half-move;
 * - `saveAnalysis` / `updateAnalysis` add squares(query) a query, and the reading of a game.
 * A request is heavy when work > HEAVY_WORK.
 */
import type {
  DocumentNode,
  FieldNode,
  FragmentDefinitionNode,
  GraphQLSchema,
  SelectionNode,
  SelectionSetNode,
} from 'graphql';
import { getOperationAST, Kind, valueFromASTUntyped } from 'graphql';
import type { Limits } from '../../config.js';
import { gameReadWeight } from '../work/dispatch.js';
import {
  argumentOf,
  batch,
  betzaReadWork,
  boardSquares,
  DEFAULT_BOARD_SQUARES,
  FIELD_UNITS,
  GAME_PIECE_UNITS,
  MAX_PIECES,
  moverWeight,
  pageSize,
  pieceUnits,
  pliesIn,
  querySquares,
  unknownSquares,
} from './cost-inputs.js';

/** graphql-armor's defaults (costLimit): a field with a selection, a leaf, and the factor per level. */
export const OBJECT_COST = 2;
export const SCALAR_COST = 1;
export const DEPTH_COST_FACTOR = 1.5;

/**
 * Work above which a request is heavy: 65,536 squares, the size of one engine call of the loader
 * (SQUARES_PER_CALL in loader.ts, about 10 ms of the slowest kind of solve). Chosen between the
 * light requests (seed example 192, 36 8 x 8 questions with `distance layers { squares }` 4,608,
 * even all 500 of a batch 64,000, `{ __typename }` 0, saving 5 queries with results 640) and the
 * heavy ones (500 64 x 64 questions 2,048,000, `paths(first: 1000)` on 64 x 64 4,100,096, a read
 * of any stored analysis's results 2,048,000, `analyses(first: 1000)` with results ~2 x 10^9).
 */
export const HEAVY_WORK = 65_536;

/** Work of comparing the maneuvers of a game, a half-move: a few 8 x 8 solves. */
const MANEUVER_WORK = DEFAULT_BOARD_SQUARES * 4;

/** Cost (compared with MAX_COST) and estimated engine work (compared with HEAVY_WORK) of one operation. */
export interface OperationCost {
  cost: number;
  work: number;
}

/** What `operationCost` needs: the operation is picked from the document as graphql-js would. */
export interface OperationCostArgs {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
  variables?: Readonly<Record<string, unknown>> | null;
  limits: Limits;
}

/** A schema type seen by shape only (Apollo and this module may load two copies of graphql). */
interface SchemaType {
  name?: string;
  ofType?: SchemaType;
  getFields?: () => Record<string, { type: unknown; args: readonly { name: string; defaultValue: unknown }[] }>;
}

/** Path questions an `Analysis.results` below stands for (how many, their squares in all), and the squares of the enclosing `position`'s board. */
interface Scope {
  count: number;
  squares: number;
  board: number;
  /** Half-moves of the enclosing game (its text's, or MAX_PLIES for a stored game), for its work. */
  plies: number;
  /** The same, for its cost: a stored game's are unknown before execution (1, as armor's list). */
  pricedPlies: number;
  /** Work units a question's SVG adds for the pieces of its position (FEN), per board square. */
  pieceUnits: number;
}

/** A selection's cost, work, and work units per question (those only count beneath a path result). */
interface Tally {
  cost: number;
  work: number;
  units: number;
}

/** One walk over an operation; fragment tallies memoised per scope (`active`: fragments being walked). */
interface Walk {
  schema: GraphQLSchema;
  limits: Limits;
  variables: Record<string, unknown>;
  fragments: Map<string, FragmentDefinitionNode>;
  memo: Map<string, Tally>;
  active: Set<string>;
  /** Half-moves of each PGN text met (aliases of one text are counted once). */
  plies: Map<string, number>;
}

/** Computes the cost and work of the operation of `document` that will run (0 and 0 if none). */
export function operationCost(args: OperationCostArgs): OperationCost {
  const { schema, document, limits } = args;
  const operation = getOperationAST(document, args.operationName ?? undefined);
  if (!operation) return { cost: 0, work: 0 };
  const variables: Record<string, unknown> = Object.create(null);
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (args.variables && Object.hasOwn(args.variables, name)) variables[name] = args.variables[name];
    else if (definition.defaultValue) variables[name] = valueFromASTUntyped(definition.defaultValue);
  }
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const root =
    operation.operation === 'query'
      ? schema.getQueryType()
      : operation.operation === 'mutation'
        ? schema.getMutationType()
        : schema.getSubscriptionType();
  const walk: Walk = { schema, limits, variables, fragments, memo: new Map(), active: new Set(), plies: new Map() };
  const unknown = unknownSquares(limits);
  const scope: Scope = {
    count: 1,
    squares: limits.maxBatchSize * unknown,
    board: DEFAULT_BOARD_SQUARES,
    plies: limits.maxPlies,
    pricedPlies: 1,
    pieceUnits: 0,
  };
  const { cost, work } = selections(
    operation.selectionSet,
    (root ?? undefined) as SchemaType | undefined,
    scope,
    walk,
    1,
  );
  return { cost, work };
}

function selections(
  set: SelectionSetNode,
  parent: SchemaType | undefined,
  scope: Scope,
  walk: Walk,
  factor: number,
): Tally {
  const sum: Tally = { cost: 0, work: 0, units: 0 };
  for (const node of set.selections) {
    const t = selection(node, parent, scope, walk);
    sum.cost += factor * t.cost;
    sum.work += t.work;
    sum.units += t.units;
  }
  return sum;
}

function selection(node: SelectionNode, parent: SchemaType | undefined, scope: Scope, walk: Walk): Tally {
  if (node.kind === Kind.FIELD) return field(node, parent, scope, walk);
  if (node.kind === Kind.INLINE_FRAGMENT) {
    const type = node.typeCondition ? typeNamed(walk, node.typeCondition.name.value) : parent;
    const inner = selections(node.selectionSet, type, scope, walk, DEPTH_COST_FACTOR);
    return { ...inner, cost: OBJECT_COST + inner.cost };
  }
  // A fragment spread: its definition's tally is the same wherever it is spread in one scope.
  const name = node.name.value;
  const fragment = walk.fragments.get(name);
  if (!fragment || walk.active.has(name)) return { cost: SCALAR_COST, work: 0, units: 0 };
  const key = `${name}|${scope.count}|${scope.squares}|${scope.board}|${scope.plies}|${scope.pricedPlies}|${scope.pieceUnits}`;
  let t = walk.memo.get(key);
  if (!t) {
    walk.active.add(name);
    const inner = selections(
      fragment.selectionSet,
      typeNamed(walk, fragment.typeCondition.name.value),
      scope,
      walk,
      DEPTH_COST_FACTOR,
    );
    walk.active.delete(name);
    t = { ...inner, cost: OBJECT_COST + inner.cost };
    walk.memo.set(key, t);
  }
  return { ...t, cost: SCALAR_COST + DEPTH_COST_FACTOR * t.cost };
}

function field(node: FieldNode, parent: SchemaType | undefined, scope: Scope, walk: Walk): Tally {
  const name = node.name.value;
  if (name === '__schema') return { cost: 0, work: 0, units: 0 };
  const key = `${parent?.name}.${name}`;
  if (!node.selectionSet) {
    const pieces = key === 'Overlay.svg' ? scope.pieceUnits : 0;
    // The annotated PGN compares every maneuver of the game, as `Journey.maneuvers` does.
    const work = key === 'Game.pgn' ? scope.plies * MANEUVER_WORK : 0;
    return { cost: SCALAR_COST, work, units: (FIELD_UNITS[key] ?? 0) + pieces };
  }
  const { limits } = walk;
  const definition = parent?.getFields?.()[name];
  const type = namedType(definition?.type);
  let m = type?.name?.endsWith('Connection') ? pageSize(node, definition?.args ?? [], walk.variables, limits) : 1;
  let mWork = 0; // the work's multiplier when it differs from the cost's
  let squares = unknownSquares(limits); // of the questions, if this field returns path results
  let extraUnits = 0;
  let prepared = 0;
  let inner = scope;
  switch (key) {
    case 'Query.shortestPaths': {
      const query = argumentOf(node, 'query', walk.variables);
      squares = querySquares(query, limits) * moverWeight(query);
      prepared = betzaReadWork(query);
      inner = { ...scope, pieceUnits: pieceUnits(query, querySquares(query, limits)) };
      break;
    }
    case 'Query.shortestPathsBatch': {
      const queries = batch(argumentOf(node, 'queries', walk.variables), limits);
      m = Math.max(queries.length, 1);
      squares = queries.reduce((n: number, q) => n + querySquares(q, limits) * moverWeight(q), 0);
      prepared = queries.reduce((n: number, q) => n + betzaReadWork(q), 0);
      inner = { ...scope, pieceUnits: Math.max(0, ...queries.map((q) => pieceUnits(q, querySquares(q, limits)))) };
      break;
    }
    case 'Query.position': {
      const board = boardSquares(argumentOf(node, 'board', walk.variables), limits);
      inner = { ...scope, board, pieceUnits: pieceUnits({ fen: argumentOf(node, 'fen', walk.variables) }, board) };
      break;
    }
    case 'Position.paths':
      squares = scope.board;
      if (argumentOf(node, 'avoidAttacked', walk.variables) === true) extraUnits = 1;
      break;
    case 'Query.game': {
      // Reading the game: its text read and its half-moves played, then positions of 8 x 8 below it.
      const pgn = argumentOf(node, 'pgn', walk.variables);
      const plies = pliesIn(pgn, limits, walk.plies);
      prepared = gameReadWeight(
        plies,
        typeof pgn === 'string' ? Math.min(pgn.length, limits.maxPgnBytes) : limits.maxPgnBytes,
      );
      inner = { ...scope, board: DEFAULT_BOARD_SQUARES, plies, pricedPlies: plies, pieceUnits: GAME_PIECE_UNITS };
      break;
    }
    case 'Analysis.game':
      prepared = gameReadWeight(limits.maxPlies, limits.maxPgnBytes);
      inner = {
        ...scope,
        board: DEFAULT_BOARD_SQUARES,
        plies: limits.maxPlies,
        pricedPlies: 1,
        pieceUnits: GAME_PIECE_UNITS,
      };
      break;
    case 'Game.plies':
      m = Math.max(scope.pricedPlies, 1);
      mWork = Math.max(scope.plies, 1);
      break;
    case 'Game.journeys':
      m = MAX_PIECES;
      break;
    case 'Journey.route':
      squares = DEFAULT_BOARD_SQUARES;
      break;
    case 'Journey.maneuvers':
      // Each move of the game is in at most one maneuver, compared in a few 8 x 8 solves.
      prepared = scope.plies * MANEUVER_WORK;
      break;
    case 'Mutation.saveAnalysis':
    case 'Mutation.updateAnalysis': {
      const input = argumentOf(node, 'input', walk.variables);
      const { queries: given, pgn } = (input !== null && typeof input === 'object' ? input : {}) as Record<
        string,
        unknown
      >;
      if (given !== undefined) {
        const queries = batch(given, limits);
        prepared = queries.reduce((n: number, q) => n + querySquares(q, limits), 0);
        inner = { ...scope, count: queries.length, squares: prepared };
      }
      // A game saved is read first, as `game(pgn:)` reads it.
      if (typeof pgn === 'string' && pgn.trim() !== '') {
        prepared += gameReadWeight(pliesIn(pgn, limits, walk.plies), Math.min(pgn.length, limits.maxPgnBytes));
      }
      break;
    }
    case 'Analysis.results':
      m = Math.max(Math.min(scope.count, limits.maxBatchSize), 1);
      squares = scope.squares;
      break;
  }
  const below = selections(node.selectionSet, type, inner, walk, DEPTH_COST_FACTOR);
  const cost = (OBJECT_COST + below.cost) * m;
  if (type?.name === 'PathResult') return { cost, work: prepared + squares * (1 + extraUnits + below.units), units: 0 };
  if (key === 'PathResult.paths') return { cost, work: below.work, units: m + below.units };
  return { cost, work: prepared + below.work * (mWork || m), units: (FIELD_UNITS[key] ?? 0) + below.units };
}

function namedType(type: unknown): SchemaType | undefined {
  let t = type as SchemaType | undefined;
  while (t?.ofType) t = t.ofType;
  return t;
}

function typeNamed(walk: Walk, name: string): SchemaType | undefined {
  return (walk.schema.getType(name) ?? undefined) as SchemaType | undefined;
}
