/**
 * The engine's public shapes. Field names follow the GraphQL contract (`schema.graphql`), so a
 * `PathResult` can be handed to the GraphQL layer as it is: plain properties and getters for
 * fields, and `paths(args)` as a method (graphql-js calls a function-valued property with the
 * field's arguments).
 */

/**
 * The kinds of movers: the seven orthodox ones (pawns split by colour because their moves
 * differ) and FAIRY, a piece given by its Betza text (`PathQuery.betza`).
 */
export type Piece = OrthodoxMover | 'FAIRY';

/** The seven orthodox movers, each with its own move table and fast paths. */
export type OrthodoxMover = 'KING' | 'QUEEN' | 'ROOK' | 'BISHOP' | 'KNIGHT' | 'WHITE_PAWN' | 'BLACK_PAWN';

/** Every piece, in the contract's order; the index of an orthodox one is its fast path's code. */
export const PIECES: readonly Piece[] = [
  'KING',
  'QUEEN',
  'ROOK',
  'BISHOP',
  'KNIGHT',
  'WHITE_PAWN',
  'BLACK_PAWN',
  'FAIRY',
];

/** The orthodox movers, in the contract's order: `PIECES` without FAIRY. */
export const ORTHODOX_MOVERS: readonly OrthodoxMover[] = [
  'KING',
  'QUEEN',
  'ROOK',
  'BISHOP',
  'KNIGHT',
  'WHITE_PAWN',
  'BLACK_PAWN',
];

/** Role of a piece standing in a position (FEN). */
export type Role = 'KING' | 'QUEEN' | 'ROOK' | 'BISHOP' | 'KNIGHT' | 'PAWN';

/** Side of a piece or side to move. */
export type Color = 'WHITE' | 'BLACK';

/** Board size: `files` columns by `ranks` rows, each 1..256. */
export interface Board {
  readonly files: number;
  readonly ranks: number;
}

/** One path question, shaped like the GraphQL `PathQuery` input. */
export interface PathQuery {
  piece: Piece;
  /** With piece FAIRY, and only then: the piece in Betza notation (e.g. `NN`, the nightrider). */
  betza?: string | null;
  from: readonly string[];
  to: readonly string[];
  /** Default 8 x 8. */
  board?: Board | null;
  /** Passable squares as `0x` + hex; default every square. */
  mask?: string | null;
  /** Squares removed from the mask. */
  blocked?: readonly string[] | null;
  /** A position whose occupied squares block, except the from and to squares. */
  fen?: string | null;
}

/** A set of squares; every view is computed from the bits when first read. */
export interface SquareSet {
  /** `0x` + exactly ceil(files*ranks/4) lower-case hex digits. */
  readonly bitboard: string;
  /** Square names in increasing index order. */
  readonly squares: string[];
  /** Number of squares. */
  readonly count: number;
  /** Square indices in increasing order. */
  readonly indices: number[];
}

/** One path: the squares v_0 .. v_D. */
export interface Path {
  readonly squares: string[];
}

/** A page of paths in lexicographic order (Relay connection shape). */
export interface PathConnection {
  edges: { cursor: string; node: Path }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  totalCount: bigint;
}

/**
 * The canonical problem, as text: what the cache key hashes and what the store keeps so that a
 * result can be rebuilt (`restoreResult`) without solving again.
 */
export interface CanonicalProblem {
  /** FAIRY only for a piece no orthodox one equals (a Betza text of the king is KING). */
  piece: Piece;
  /** With FAIRY: the piece's canonical Betza text. */
  betza?: string;
  files: number;
  ranks: number;
  /** Effective passable set P. */
  mask: string;
  /** S' = S ∩ P. */
  sources: string;
  /** T' = T ∩ P. */
  targets: string;
}

/** The answer to one query; cheap fields are eager, the rest are computed on first read. */
export interface PathResult {
  /** Hex SHA-256 of the canonical problem. */
  readonly key: string;
  /** The piece that moved: an orthodox piece however it was asked (`betza: 'WF'` is KING), else FAIRY. */
  readonly piece: Piece;
  /** The canonical Betza text of the piece (`K` for the king); null for pawns. */
  readonly betza: string | null;
  readonly board: Board;
  /** Effective passable set, as bitboard text. */
  readonly mask: string;
  readonly sources: SquareSet;
  readonly targets: SquareSet;
  readonly reachable: boolean;
  readonly distance: number | null;
  readonly layers: SquareSet[];
  readonly squares: SquareSet;
  readonly pathCount: bigint;
  /** The path count if it is already known (computed or restored), without computing it. */
  readonly knownPathCount?: bigint;
  readonly path: Path | null;
  paths(args?: { first?: number | null; after?: string | null }): PathConnection;
  readonly distances: (number | null)[];
  /** True when rebuilt from a stored answer (`restoreResult`), false when solved. */
  readonly cached: boolean;
  /** The canonical problem, as text. */
  readonly problem: CanonicalProblem;
}
