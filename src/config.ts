/**
 * Server configuration, read once from the environment into a plain frozen object.
 *
 * Every variable is documented in `.env.example`. Parsing is strict: a malformed value (a port of
 * "abc", a negative limit) stops start-up with a message naming the variable, rather than
 * silently falling back to a default. Tests build a config with `loadConfig({ ...overrides })`, so
 * nothing here reads `process.env` unless asked to.
 */

/** Limits the service enforces on every request; each names its variable in error messages. */
export interface Limits {
  /** Largest board side (files or ranks) a query may use; the engine itself allows 256. */
  maxBoardSide: number;
  /** Most queries in one `shortestPathsBatch` call, analysis or similar list. */
  maxBatchSize: number;
  /** Largest `first` of `paths` and `analyses`. */
  maxPageSize: number;
  /** graphql-armor: deepest selection. */
  maxDepth: number;
  /** graphql-armor: most aliases in one operation. */
  maxAliases: number;
  /** graphql-armor: highest static cost of one operation. */
  maxCost: number;
  /** graphql-armor: most tokens in one document. */
  maxTokens: number;
  /** graphql-armor: most directives in one operation. */
  maxDirectives: number;
  /** Largest request body in bytes. */
  maxBodyBytes: number;
  /** Longest title or notes of an analysis, in characters. */
  maxTextLength: number;
  /** Engine time one request may use, in ms (0: no budget). */
  engineBudgetMs: number;
  /** Largest answer, roughly in bytes of JSON, counted over the fields that can be large (0: no limit). */
  maxResponseBytes: number;
}

/** Everything the server needs to start. */
export interface Config {
  port: number;
  host: string;
  /** Prisma-style SQLite URL of the store. */
  databaseUrl: string;
  /** Most bytes of the result cache table (rows and their keys); least recently used rows go first. */
  cacheMaxBytes: number;
  /** Most stored bytes of one saved analysis (its queries, title, notes and FEN). */
  maxAnalysisBytes: number;
  /** Most stored bytes of all saved analyses together; saves past it are refused. */
  analysesMaxBytes: number;
  /** Worker threads that run engine work (0: one fewer than the cores, at least one). */
  workerThreads: number;
  /** Most engine tasks waiting for a worker; past it new heavy work is refused (OVERLOADED). */
  workQueue: number;
  /** Heavy requests (those whose estimated work needs the workers) executing at once. */
  heavyRequests: number;
  /** Heavy requests waiting for a turn; past it they are refused at once with HTTP 503. */
  admissionQueue: number;
  /** Longest wait of a heavy request for its turn, ms; then HTTP 503. */
  admissionTimeoutMs: number;
  /** Hot results kept ready to serve in memory (0: none). */
  resultMemoSize: number;
  /** Whole responses of requests answered from memoised results, kept to send again (0: none). */
  responseCacheSize: number;
  /** Most fresh results waiting to be written to the cache (the oldest are dropped past it). */
  cacheWriteQueue: number;
  /** How long a database statement waits for another connection's lock, ms (it blocks the event loop meanwhile). */
  databaseBusyTimeoutMs: number;
  /** While the database is unavailable, or failed to open: time between retries, ms (0: never retry opening). */
  databaseRetryMs: number;
  /** pino level: fatal, error, warn, info, debug, trace or silent. */
  logLevel: string;
  /** True when NODE_ENV is `production`: no stack traces, internal error messages hidden. */
  production: boolean;
  /** Serve the offline GraphiQL playground on GET /graphql. */
  playground: boolean;
  /** Answer introspection queries (the playground needs them). */
  introspection: boolean;
  /** Origins allowed by CORS; empty: no CORS headers (same origin only). `*` allows any. */
  corsOrigins: string[];
  /** How long shutdown waits for requests in flight before cutting connections. */
  shutdownTimeoutMs: number;
  /** Mutation root fields one client address may run per window (0: no limit). */
  rateLimitMutations: number;
  /** Length of a rate-limit window, ms. */
  rateLimitWindowMs: number;
  limits: Limits;
}

/** Environment-variable names and defaults, in the order of `.env.example`. */
export const DEFAULTS = {
  PORT: 4000,
  HOST: '0.0.0.0',
  DATABASE_URL: 'file:./data/chess-paths.db',
  CACHE_MAX_BYTES: 268_435_456,
  MAX_ANALYSIS_BYTES: 1_048_576,
  ANALYSES_MAX_BYTES: 268_435_456,
  WORKER_THREADS: 0,
  WORK_QUEUE: 256,
  HEAVY_REQUESTS: 1,
  ADMISSION_QUEUE: 16,
  ADMISSION_TIMEOUT_MS: 2000,
  RESULT_MEMO_SIZE: 1000,
  RESPONSE_CACHE_SIZE: 1000,
  CACHE_WRITE_QUEUE: 10_000,
  DATABASE_BUSY_TIMEOUT_MS: 1000,
  DATABASE_RETRY_MS: 5000,
  LOG_LEVEL: 'info',
  MAX_BOARD_SIDE: 64,
  MAX_BATCH_SIZE: 500,
  MAX_PAGE_SIZE: 1000,
  MAX_DEPTH: 10,
  MAX_ALIASES: 30,
  MAX_COST: 50_000,
  MAX_TOKENS: 10_000,
  MAX_DIRECTIVES: 50,
  MAX_BODY_BYTES: 1_048_576,
  MAX_TEXT_LENGTH: 10_000,
  ENGINE_BUDGET_MS: 2000,
  MAX_RESPONSE_BYTES: 16_777_216,
  SHUTDOWN_TIMEOUT_MS: 10_000,
  RATE_LIMIT_MUTATIONS: 60,
  RATE_LIMIT_WINDOW_MS: 60_000,
} as const;

const LOG_LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/** A configuration value that cannot be used; the message names the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: keyof typeof DEFAULTS, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  const fallback = DEFAULTS[name];
  if (raw === undefined || raw.trim() === '') return fallback as number;
  const text = raw.trim().replace(/_/g, '');
  if (!/^\d+$/.test(text)) throw new ConfigError(`${name}=${JSON.stringify(raw)} is not a whole number`);
  const value = Number(text);
  if (value < min || value > max) throw new ConfigError(`${name}=${raw} is outside ${min}..${max}`);
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name}=${JSON.stringify(env[name])} is not a boolean (true/false)`);
}

function text(env: Env, name: keyof typeof DEFAULTS): string {
  const raw = env[name]?.trim();
  return raw === undefined || raw === '' ? String(DEFAULTS[name]) : raw;
}

/** Reads the configuration from `env` (default `process.env`); throws `ConfigError` on a bad value. */
export function loadConfig(env: Env = process.env): Config {
  const logLevel = text(env, 'LOG_LEVEL').toLowerCase();
  if (!LOG_LEVELS.has(logLevel)) {
    throw new ConfigError(`LOG_LEVEL=${JSON.stringify(logLevel)} is not one of ${[...LOG_LEVELS].join(', ')}`);
  }
  const playground = boolean(env, 'PLAYGROUND', true);
  const introspection = boolean(env, 'INTROSPECTION', playground);
  if (playground && !introspection) {
    throw new ConfigError('PLAYGROUND=true needs INTROSPECTION=true (the playground reads the schema by introspection)');
  }
  const config: Config = {
    port: integer(env, 'PORT', 0, 65535),
    host: text(env, 'HOST'),
    databaseUrl: text(env, 'DATABASE_URL'),
    cacheMaxBytes: integer(env, 'CACHE_MAX_BYTES', 0),
    maxAnalysisBytes: integer(env, 'MAX_ANALYSIS_BYTES', 1),
    analysesMaxBytes: integer(env, 'ANALYSES_MAX_BYTES', 0),
    workerThreads: integer(env, 'WORKER_THREADS', 0, 256),
    workQueue: integer(env, 'WORK_QUEUE', 1),
    heavyRequests: integer(env, 'HEAVY_REQUESTS', 1),
    admissionQueue: integer(env, 'ADMISSION_QUEUE', 0),
    admissionTimeoutMs: integer(env, 'ADMISSION_TIMEOUT_MS', 0),
    resultMemoSize: integer(env, 'RESULT_MEMO_SIZE', 0),
    responseCacheSize: integer(env, 'RESPONSE_CACHE_SIZE', 0),
    cacheWriteQueue: integer(env, 'CACHE_WRITE_QUEUE', 1),
    databaseBusyTimeoutMs: integer(env, 'DATABASE_BUSY_TIMEOUT_MS', 0),
    databaseRetryMs: integer(env, 'DATABASE_RETRY_MS', 0),
    logLevel,
    production: env.NODE_ENV === 'production',
    playground,
    introspection,
    corsOrigins: (env.CORS_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter((o) => o !== ''),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 0),
    rateLimitMutations: integer(env, 'RATE_LIMIT_MUTATIONS', 0),
    rateLimitWindowMs: integer(env, 'RATE_LIMIT_WINDOW_MS', 1),
    limits: {
      maxBoardSide: integer(env, 'MAX_BOARD_SIDE', 1, 256),
      maxBatchSize: integer(env, 'MAX_BATCH_SIZE', 1),
      maxPageSize: integer(env, 'MAX_PAGE_SIZE', 1),
      maxDepth: integer(env, 'MAX_DEPTH', 1),
      maxAliases: integer(env, 'MAX_ALIASES', 0),
      maxCost: integer(env, 'MAX_COST', 1),
      maxTokens: integer(env, 'MAX_TOKENS', 1),
      maxDirectives: integer(env, 'MAX_DIRECTIVES', 0),
      maxBodyBytes: integer(env, 'MAX_BODY_BYTES', 1),
      maxTextLength: integer(env, 'MAX_TEXT_LENGTH', 1),
      engineBudgetMs: integer(env, 'ENGINE_BUDGET_MS', 0),
      maxResponseBytes: integer(env, 'MAX_RESPONSE_BYTES', 0),
    },
  };
  return config;
}

/** Environment variable behind each limit, for error messages. */
export const LIMIT_VARIABLES: Record<keyof Limits, string> = {
  maxBoardSide: 'MAX_BOARD_SIDE',
  maxBatchSize: 'MAX_BATCH_SIZE',
  maxPageSize: 'MAX_PAGE_SIZE',
  maxDepth: 'MAX_DEPTH',
  maxAliases: 'MAX_ALIASES',
  maxCost: 'MAX_COST',
  maxTokens: 'MAX_TOKENS',
  maxDirectives: 'MAX_DIRECTIVES',
  maxBodyBytes: 'MAX_BODY_BYTES',
  maxTextLength: 'MAX_TEXT_LENGTH',
  engineBudgetMs: 'ENGINE_BUDGET_MS',
  maxResponseBytes: 'MAX_RESPONSE_BYTES',
};
