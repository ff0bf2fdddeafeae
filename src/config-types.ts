/**
 * The shapes of the server's configuration: what `loadConfig` (`config.ts`) returns. Kept apart
 * from the table of variables so that each file stays readable; every field is set by one row of
 * that table, whose `doc` is the field's meaning.
 */

/** Limits the service enforces on every request; each names its variable in error messages. */
export interface Limits {
  maxBoardSide: number;
  maxBatchSize: number;
  maxBatchOperations: number;
  maxPageSize: number;
  maxDepth: number;
  maxAliases: number;
  maxCost: number;
  maxTokens: number;
  maxDirectives: number;
  maxBodyBytes: number;
  maxTextLength: number;
  /** Largest PGN text, bytes. */
  maxPgnBytes: number;
  /** Most half-moves of a game. */
  maxPlies: number;
  /** Longest Betza text, characters. */
  maxBetzaLength: number;
  engineBudgetMs: number;
  maxResponseBytes: number;
}

/** Everything the server needs to start; each field's meaning is the `doc` of the row that sets it. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  databasePoolSize: number;
  cacheMaxBytes: number;
  maxAnalysisBytes: number;
  analysesMaxBytes: number;
  idempotencyWindowHours: number;
  /** 0: one fewer than the cores, at least one (resolved by the worker pool). */
  workerThreads: number;
  workQueue: number;
  heavyRequests: number;
  admissionQueue: number;
  admissionTimeoutMs: number;
  resultMemoSize: number;
  responseCacheSize: number;
  pathCacheControl: string;
  cacheWriteQueue: number;
  cacheWriteGatherMs: number;
  databaseBusyTimeoutMs: number;
  /** How long path questions wait for the result cache's answer, ms. */
  cacheReadWaitMs: number;
  databaseRetryMs: number;
  logLevel: string;
  /** Derived: true when NODE_ENV is `production`. */
  production: boolean;
  playground: boolean;
  introspection: boolean;
  corsOrigins: string[];
  shutdownTimeoutMs: number;
  /** Longest a client may take nothing of an answer being streamed before it is dropped, ms. */
  sendStallMs: number;
  rateLimitMutations: number;
  rateLimitWindowMs: number;
  trustProxyHops: number;
  limits: Limits;
}
