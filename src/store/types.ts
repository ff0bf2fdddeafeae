/**
 * The contract between the GraphQL layer and persistence. `src/store/index.ts` exports
 * `openStore(options): Promise<Store>`, which opens SQLite or PostgreSQL through Prisma, applies
 * the committed migrations and returns these two services. Resolvers depend on these interfaces
 * only, and never know which database is behind them. When the database cannot be used (locked,
 * read-only, full, unreachable), operations reject with `DatabaseUnavailableError` instead of
 * the driver's error; the errors the contract names are in `./errors.ts`.
 */
import type { CanonicalProblem, PathQuery } from '@chess-paths/engine';

/** A path question already normalised by the engine: its cache key and canonical problem. */
export interface PreparedProblem {
  key: string;
  problem: CanonicalProblem;
}

/**
 * A result as the cache keeps it: the canonical problem, and the layers already encoded by the
 * caller (the engine's compact codec, whose size grows with the squares on shortest paths, not
 * with board x distance). The store treats `layers` as opaque bytes.
 */
export interface StoredResult {
  key: string;
  problem: CanonicalProblem;
  /** Length of the shortest paths; null when unreachable. */
  distance: number | null;
  /** Encoded layers. */
  layers: Uint8Array;
  /** The number of shortest paths when it was known at store time. */
  pathCount: bigint | undefined;
}

/** Persistent cache of results keyed by the canonical key, bounded in bytes. */
export interface ResultCache {
  /**
   * Looks up many problems at once, in bounded chunks (the event loop runs between them).
   * Returns, in input order, the stored row or `undefined` for a miss. A row whose stored
   * canonical inputs differ from `problem` is a miss.
   */
  getMany(problems: readonly PreparedProblem[]): Promise<(StoredResult | undefined)[]>;
  /**
   * Stores results (in bounded chunks, one transaction each), then evicts least recently used
   * rows until the table is within its byte budget.
   */
  putMany(results: readonly StoredResult[]): Promise<void>;
  /** False when no row for `key` was ever written (`./written-keys.ts`); absent: any may be held. */
  mayHold?(key: string): boolean;
  /** Whether `mayHold` is exact (SQLite, held alone); on PostgreSQL it lags other replicas' writes. */
  readonly exactKeys?: boolean;
  /** Keys in the filter of written keys and the bytes of its table, for `/metrics`. */
  writtenKeysSize?(): { entries: number; bytes: number };
}

/** A saved analysis as stored. */
export interface AnalysisRecord {
  id: string;
  title: string;
  notes: string | null;
  fen: string | null;
  /** The game, as its PGN text was given, or null. */
  pgn: string | null;
  /** The path queries, in order, exactly as given. */
  queries: PathQuery[];
  /** Cache keys of their results, in the same order. */
  resultKeys: string[];
  createdAt: Date;
  updatedAt: Date;
  /** 1 at creation, one more at every update that changed something. */
  version: number;
}

/** One page of analyses, newest first. */
export interface AnalysisPage {
  edges: { cursor: string; node: AnalysisRecord }[];
  hasNextPage: boolean;
  endCursor: string | null;
  totalCount: number;
}

/** Fields to change; absent fields stay, `null` clears notes, fen or pgn. */
export interface AnalysisPatch {
  title?: string;
  notes?: string | null;
  fen?: string | null;
  pgn?: string | null;
  queries?: PathQuery[];
  resultKeys?: string[];
}

/** How a save is made idempotent: a retry with the same key answers the first save's result. */
export interface SaveOptions {
  /** The key (1 to 255 printable ASCII characters as a client gives it; any text the caller derives from one). */
  idempotencyKey?: string;
  /** The key as the client sent it, which errors name (default `idempotencyKey`). */
  clientKey?: string;
}

/** What a save answers. */
export interface SavedAnalysis {
  analysis: AnalysisRecord;
  editToken: string;
  /** True when an earlier save with the same idempotency key is answered again (nothing new stored). */
  replayed?: boolean;
}

/** Saved analyses; only the holder of the edit token may change or delete one. */
export interface AnalysisStore {
  /**
   * Saves in one transaction; the edit token is returned here only and stored as a hash. With an
   * idempotency key, a save with the same key within the window answers the first save's analysis
   * (as it is now) and token, and stores nothing; `IdempotencyKeyReusedError` when that save's
   * input differs, `IdempotentSaveGoneError` when its analysis was deleted since.
   */
  save(
    input: {
      title: string;
      notes?: string | null;
      fen?: string | null;
      pgn?: string | null;
      queries: PathQuery[];
      resultKeys: string[];
    },
    options?: SaveOptions,
  ): Promise<SavedAnalysis>;
  get(id: string): Promise<AnalysisRecord | null>;
  /** Newest first; `after` is an opaque cursor from a previous page (bad cursor: InputError). */
  list(args: { first: number; after?: string | null }): Promise<AnalysisPage>;
  /**
   * Applies `patch` as one change on top of whatever was last written (concurrent updates, from
   * any replica, are applied one after the other: none is lost). With `expectedVersion`, only if
   * the analysis is still at that version, else `ConflictError`. Throws `ForbiddenError` on a
   * wrong token, `NotFoundError` for an unknown id, `VersionLimitError` at version 2^31 - 1.
   */
  update(id: string, editToken: string, patch: AnalysisPatch, expectedVersion?: number): Promise<AnalysisRecord>;
  /** Throws `ForbiddenError` on a wrong token, `NotFoundError` for an unknown id. */
  delete(id: string, editToken: string): Promise<boolean>;
  /**
   * Throws as `update` and `delete` would for this id and token, and changes nothing: lets a
   * caller refuse a stranger before it spends work on the change (`update` checks again).
   */
  authorize(id: string, editToken: string): Promise<void>;
}

/** What `openStore` returns. */
export interface Store {
  cache: ResultCache;
  analyses: AnalysisStore;
  /**
   * True while the database answers a trivial query and a real write succeeded recently: an
   * operation's, or a trial write's, run when the store opens, when the last successful write is
   * older than 30 s, and (while the database is unavailable) once per `retryMs`.
   */
  healthy(): Promise<boolean>;
  /** Why the database is unavailable (e.g. `database is locked`), while it is; else undefined. */
  unavailableReason?(): string | undefined;
  /**
   * Closes the database. With `timeoutMs`, it settles within about that time whatever it waits
   * for: past half of it, statements still running are ended (on PostgreSQL their backends are
   * terminated, so nothing they were doing commits later, and their operations fail as
   * unavailable); past all of it, the close is left to finish on its own.
   */
  close(timeoutMs?: number): Promise<void>;
}

/** Options of `openStore`; every one has a default taken from the environment by the server. */
export interface StoreOptions {
  /** `file:./data/chess-paths.db` (SQLite; the directory is created) or `postgresql://...`. */
  databaseUrl: string;
  /** Most connections to PostgreSQL (default 10; SQLite always has one). */
  poolSize?: number;
  /** Most bytes of the cache table; least recently used rows are evicted beyond it (0: no limit). */
  maxCacheBytes: number;
  /** Most stored bytes of one analysis (title, notes, FEN, queries): `StorageLimitError` past it. */
  maxAnalysisBytes: number;
  /** Most stored bytes of all analyses together: `StorageLimitError` for a save or update past it (0: no limit). */
  maxAnalysesBytes: number;
  /**
   * How long the start-up migrator waits for another process's lock, ms (default 5000). Once
   * open, the store holds the database exclusively and never waits for a lock.
   */
  busyTimeoutMs?: number;
  /** After the database was found unavailable: writes fail at once, but one is tried again every `retryMs` (default 5000). */
  retryMs?: number;
  /** How long a save's idempotency key is kept, ms (default 24 h): a retry within it is answered, not stored again. */
  idempotencyWindowMs?: number;
}
