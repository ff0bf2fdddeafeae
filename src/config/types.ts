/**
 * The shapes of the server's configuration: what `loadConfig` (`../config.ts`) returns. Kept apart
 * from the table of variables so that each file stays readable; every field is set by one row of
 * that table, whose `doc` is the field's meaning. `sets` types a row by the field it sets, for
 * the table and the groups of it kept in files of their own (`./memory.ts`).
 */

import type { Row } from './kinds.js';

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
  /** Bounds of the caches in memory, bytes (`./memory.ts`). */
  resultMemoBytes: number;
  preparedQueryBytes: number;
  responseCacheBytes: number;
  gameCacheBytes: number;
  documentCacheBytes: number;
  shapeCacheBytes: number;
  /** Bounds of the engine's caches, in each thread, bytes. */
  betzaCacheBytes: number;
  boardCacheBytes: number;
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

type LimitKey = `limits.${keyof Limits}`;
/** A `Config` field a row may set (`production` is derived from NODE_ENV instead). */
type Key = Exclude<keyof Config, 'limits' | 'production'> | LimitKey;
type ValueAt<K extends Key> = K extends `limits.${infer L extends keyof Limits}`
  ? Limits[L]
  : K extends keyof Config
    ? Config[K]
    : never;

/** A row that sets a `Config` field; the kind and default must fit the field's type. */
export function sets<K extends Key>(row: Row<ValueAt<K>> & { key: K }): Row<ValueAt<K>> {
  return row;
}
