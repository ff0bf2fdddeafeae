/**
 * Server configuration, read once from the environment into a plain object.
 *
 * Every setting is one row of the table `VARIABLES` below: the variable's name, the `Config`
 * field it sets, how its text is parsed and checked, its default and the sentence that explains it
 * to users. Nothing else names a setting: the defaults (`DEFAULTS`), `loadConfig`, the variable
 * behind each limit (`LIMIT_VARIABLES`), and the generated `.env.example` and
 * `docs/configuration.md` (`npm run env:example`) all follow from the rows, so a setting cannot
 * be added, renamed or re-defaulted in one place and forgotten in another.
 *
 * Parsing is strict: a malformed value (a port of "abc", a negative limit) stops start-up with a
 * `ConfigError` naming the variable and the value, rather than silently falling back to the
 * default. An unset or empty variable takes its default. Tests build a config with
 * `loadConfig({ ...overrides })`, so nothing here reads `process.env` unless asked to.
 *
 * The table is this file's one list but for the bounds of the caches in memory, its Memory group,
 * which it spreads in from `./config/memory.ts`. The vocabulary the rows are written in (the
 * kinds of value, `group`, `ConfigError`) is `./config/kinds.ts`, and the shapes `loadConfig`
 * returns (`Config`, `Limits`) are `./config/types.ts`.
 */

import type { Variable } from './config/kinds.js';
import { boolean, ConfigError, databaseUrl, group, integer, oneOf, origins, text } from './config/kinds.js';
import { MEMORY } from './config/memory.js';
import { type Config, type Limits, sets } from './config/types.js';

export type { Config, Limits };
export { ConfigError };

/** The table: every environment variable the server reads, grouped as the docs show them. */
export const VARIABLES = {
  ...group('Server', 'Where the server listens, who may call it from a browser, and how it stops.', {
    PORT: sets({ key: 'port', kind: integer(0, 65535), default: 4000, doc: 'Port to listen on; 0 picks a free port.' }),
    HOST: sets({ key: 'host', kind: text, default: '0.0.0.0', doc: 'Address to listen on (0.0.0.0: all interfaces).' }),
    NODE_ENV: {
      kind: text,
      default: 'production',
      doc: '`production` hides internal error messages and stack traces from clients; any other value (`npm run dev` sets `development`) shows them.',
    },
    CORS_ORIGINS: sets({
      key: 'corsOrigins',
      kind: origins,
      default: ['*'],
      doc: 'Origins whose pages may call the API from a browser (CORS), each as scheme://host[:port]. `*`, the default, allows any page: the API uses no cookies (edit tokens travel in the body), so a page gets nothing it could not get with curl. A list restricts it to those origins; `none` sends no CORS headers (same origin only).',
    }),
    PLAYGROUND: sets({
      key: 'playground',
      kind: boolean,
      default: true,
      doc: 'Serve the offline GraphiQL playground on GET /graphql (in a browser). It needs INTROSPECTION.',
    }),
    INTROSPECTION: sets({
      key: 'introspection',
      kind: boolean,
      default: true,
      follows: 'PLAYGROUND',
      doc: 'Answer introspection queries (and field suggestions). Defaults to the value of PLAYGROUND; turning it off requires PLAYGROUND=false too.',
    }),
    SHUTDOWN_TIMEOUT_MS: sets({
      key: 'shutdownTimeoutMs',
      kind: integer(0),
      default: 10_000,
      doc: 'Longest graceful shutdown (SIGTERM/SIGINT), ms: requests in flight finish or are answered with an error, answers being written get to the end, the database closes within it, and the process exits at most 1 s after it whatever is stuck.',
    }),
    SEND_STALL_MS: sets({
      key: 'sendStallMs',
      kind: integer(1),
      default: 30_000,
      doc: 'A picture (`/diagram.svg`) is written a piece at a time as its client takes it; a client that takes nothing for this long is disconnected, so one that never reads cannot hold its answer in memory, ms.',
    }),
  }),
  ...group('Observability', 'What the server logs (one JSON line per event, with pino, on standard output).', {
    LOG_LEVEL: sets({
      key: 'logLevel',
      kind: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
      default: 'info',
      doc: 'How much the server logs; debug adds one line per request.',
    }),
  }),
  ...group(
    'Storage and caches',
    'The store (result cache and saved analyses: SQLite, or PostgreSQL for several replicas); the caches in memory are under Memory.',
    {
      DATABASE_URL: sets({
        key: 'databaseUrl',
        kind: databaseUrl,
        default: 'file:./data/chess-paths.db',
        doc: 'The store. A `file:` URL is an embedded SQLite file (a relative path is relative to the working directory, and the directory is created); `postgresql://user:password@host:5432/db` is a PostgreSQL database, which several replicas can share.',
      }),
      DATABASE_POOL_SIZE: sets({
        key: 'databasePoolSize',
        kind: integer(1, 1000),
        default: 10,
        doc: 'Most connections to PostgreSQL per replica (SQLite always uses one). An operation waits for a free one at most DATABASE_BUSY_TIMEOUT_MS (at least 5 s), then fails alone with SERVICE_UNAVAILABLE (the database is busy, not down).',
      }),
      CACHE_MAX_BYTES: sets({
        key: 'cacheMaxBytes',
        kind: integer(0),
        default: 268_435_456,
        doc: 'Most bytes of the result cache table (a 64 x 64 answer takes a few kilobytes); least recently used rows are evicted beyond it. 0: no bound.',
      }),
      MAX_ANALYSIS_BYTES: sets({
        key: 'maxAnalysisBytes',
        kind: integer(1),
        default: 1_048_576,
        doc: 'Most stored bytes of one saved analysis (title, notes, FEN, queries); a save or update past it is refused with STORAGE_LIMIT_EXCEEDED and nothing is written.',
      }),
      ANALYSES_MAX_BYTES: sets({
        key: 'analysesMaxBytes',
        kind: integer(0),
        default: 268_435_456,
        doc: 'Most stored bytes of all saved analyses together; saves past it are refused the same way (delete analyses to make room). 0: no bound.',
      }),
      IDEMPOTENCY_WINDOW_HOURS: sets({
        key: 'idempotencyWindowHours',
        kind: integer(1, 8760),
        default: 24,
        doc: "How long a save's idempotency key (SaveAnalysisInput.idempotencyKey or the Idempotency-Key header) is kept, hours: a retry with the same key within it answers the first save (its analysis and edit token) and stores nothing; past it the key makes a new save. Expired keys are purged a few at a time by later saves.",
      }),
      PATH_CACHE_CONTROL: sets({
        key: 'pathCacheControl',
        kind: text,
        default: 'public, max-age=31536000, immutable',
        doc: 'Cache-Control of a GET answer made only of path questions, which never change; it also gets an ETag, and a request whose If-None-Match matches gets 304. Answers that touch analyses, mutations, POST answers and answers with errors are `no-store`. Set it to `no-store` to turn HTTP caching off.',
      }),
      CACHE_WRITE_QUEUE: sets({
        key: 'cacheWriteQueue',
        kind: integer(1),
        default: 10_000,
        doc: 'Most freshly solved results waiting to be written to the cache; the oldest are dropped past it.',
      }),
      CACHE_WRITE_GATHER_MS: sets({
        key: 'cacheWriteGatherMs',
        kind: integer(0),
        default: 50,
        doc: 'While freshly solved results keep coming, how long they are gathered before they are written to the cache together, ms (sooner when 100 are waiting; the first after a quiet spell are written at once). On SQLite a row written alone costs about five times its share of a write of a hundred. A question asked again meanwhile has its result written at once and read back, so it still answers `cached: true`. 0 writes after every response.',
      }),
      DATABASE_BUSY_TIMEOUT_MS: sets({
        key: 'databaseBusyTimeoutMs',
        kind: integer(0),
        default: 1000,
        doc: "How long a database statement waits for another process's lock, ms. SQLite waits on the main thread, so every request waits too: keep it short.",
      }),
      CACHE_READ_WAIT_MS: sets({
        key: 'cacheReadWaitMs',
        kind: integer(1, 600_000),
        default: 1000,
        doc: "How long path questions wait for the result cache's answer before they are solved instead, ms (a lookup takes a millisecond or so; a database that hangs would hold every new question for its connection timeout).",
      }),
      DATABASE_RETRY_MS: sets({
        key: 'databaseRetryMs',
        kind: integer(0),
        default: 5000,
        doc: 'While the database is in trouble (locked, read-only, disk full: /health says degraded, saves fail with SERVICE_UNAVAILABLE) writes are refused at once and one is tried again every this many ms (reads too, once they fail as well: the cache is then skipped); a database that failed to open is opened again after this delay, doubling up to a minute (not after a migration error). 0: every write is tried, and a database that failed to open stays closed.',
      }),
    },
  ),
  ...MEMORY,
  ...group('Workers and admission', 'How much engine work runs at once, and how much may wait for it.', {
    WORKER_THREADS: sets({
      key: 'workerThreads',
      kind: integer(0, 256),
      default: 0,
      doc: 'Worker threads for heavy engine work (fills of boards over 32 x 32, large lazy fields, encoding and decoding of large cache rows). 0: one fewer than the cores, at least one.',
    }),
    WORK_QUEUE: sets({
      key: 'workQueue',
      kind: integer(1),
      default: 256,
      doc: 'Most engine tasks waiting for a worker; past it new heavy work fails with OVERLOADED.',
    }),
    HEAVY_REQUESTS: sets({
      key: 'heavyRequests',
      kind: integer(1),
      default: 1,
      doc: "Heavy requests (a request's engine work, estimated with its variables before it runs, is over 65,536 board squares) executing at once. Peak memory grows with this times MAX_RESPONSE_BYTES. Light requests never wait.",
    }),
    ADMISSION_QUEUE: sets({
      key: 'admissionQueue',
      kind: integer(0),
      default: 16,
      doc: 'Heavy requests waiting for their turn; past it HTTP 503 with a Retry-After header and extensions.code OVERLOADED, before anything of the request runs.',
    }),
    ADMISSION_TIMEOUT_MS: sets({
      key: 'admissionTimeoutMs',
      kind: integer(0),
      default: 2000,
      doc: 'Longest wait of a heavy request for its turn, ms; then the same HTTP 503.',
    }),
  }),
  ...group('Limits', "A limit's error names its variable (extensions.limit) and the limit (extensions.max).", {
    MAX_BOARD_SIDE: sets({
      key: 'limits.maxBoardSide',
      kind: integer(1, 256),
      default: 64,
      doc: 'Largest board side (files or ranks) of a query or FEN position; the engine allows 256.',
    }),
    MAX_BATCH_SIZE: sets({
      key: 'limits.maxBatchSize',
      kind: integer(1),
      default: 500,
      doc: 'Most queries in shortestPathsBatch or in one analysis.',
    }),
    MAX_BATCH_OPERATIONS: sets({
      key: 'limits.maxBatchOperations',
      kind: integer(1),
      default: 20,
      doc: "Most operations in one batched HTTP request (a JSON array body, as Apollo Client's BatchHttpLink sends). The operations of a batch share one body (MAX_BODY_BYTES), one cost (MAX_COST), one engine budget (ENGINE_BUDGET_MS), one answer size (MAX_RESPONSE_BYTES) and the mutation rate limit.",
    }),
    MAX_PAGE_SIZE: sets({
      key: 'limits.maxPageSize',
      kind: integer(1),
      default: 1000,
      doc: 'Largest `first` of PathResult.paths and Query.analyses.',
    }),
    MAX_DEPTH: sets({
      key: 'limits.maxDepth',
      kind: integer(1),
      default: 10,
      doc: 'Deepest selection of an operation (graphql-armor).',
    }),
    MAX_ALIASES: sets({
      key: 'limits.maxAliases',
      kind: integer(0),
      default: 30,
      doc: 'Most aliases in one operation (graphql-armor), aliases of __typename included.',
    }),
    MAX_COST: sets({
      key: 'limits.maxCost',
      kind: integer(1),
      default: 50_000,
      doc: 'Highest cost of an operation, computed with its variables before it runs: a leaf costs 1, a field with a selection 2 + 1.5 x its children, times its `first` (literal or variable) or the length of its list of queries.',
    }),
    MAX_TOKENS: sets({
      key: 'limits.maxTokens',
      kind: integer(1),
      default: 10_000,
      doc: 'Most tokens in one GraphQL document (graphql-js parser limit).',
    }),
    MAX_DIRECTIVES: sets({
      key: 'limits.maxDirectives',
      kind: integer(0),
      default: 50,
      doc: 'Most directives in one operation (graphql-armor).',
    }),
    MAX_BODY_BYTES: sets({
      key: 'limits.maxBodyBytes',
      kind: integer(1),
      default: 1_048_576,
      doc: 'Largest request body, bytes; HTTP 413 past it.',
    }),
    MAX_TEXT_LENGTH: sets({
      key: 'limits.maxTextLength',
      kind: integer(1),
      default: 10_000,
      doc: 'Longest analysis title or notes, characters.',
    }),
    MAX_PGN_BYTES: sets({
      key: 'limits.maxPgnBytes',
      kind: integer(1),
      default: 262_144,
      doc: 'Largest PGN text of `game(pgn:)` and of a saved analysis, bytes of UTF-8; a longer one is refused before it is read.',
    }),
    MAX_PLIES: sets({
      key: 'limits.maxPlies',
      kind: integer(1),
      default: 1000,
      doc: 'Most half-moves of one game; a longer game is refused before any move is played.',
    }),
    MAX_BETZA_LENGTH: sets({
      key: 'limits.maxBetzaLength',
      kind: integer(1),
      default: 1024,
      doc: 'Longest Betza text of a fairy piece (`PathQuery.betza`, `/diagram.svg?betza=`), characters; a longer one is refused before it is read. A canonical text (`PathResult.betza`) may be longer than the text asked, but never over 878 characters: with at least 878, every answer reads back.',
    }),
    ENGINE_BUDGET_MS: sets({
      key: 'limits.engineBudgetMs',
      kind: integer(0),
      default: 2000,
      doc: "Engine time one request may use, ms: solving its uncached questions plus the lazy fields it asks for (pathCount, path, paths, distances, overlay pictures), on the main thread and the workers alike. Once it is spent the request's remaining work is cancelled and fails with ENGINE_BUDGET_EXCEEDED. 0: no budget.",
    }),
    MAX_RESPONSE_BYTES: sets({
      key: 'limits.maxResponseBytes',
      kind: integer(0),
      default: 16_777_216,
      doc: 'Largest answer, about bytes of JSON, counted over the fields that can be large (pictures, square sets, paths and cursors, distance maps, masks); past it those fields fail with RESPONSE_TOO_LARGE. 0: no limit.',
    }),
    RATE_LIMIT_MUTATIONS: sets({
      key: 'rateLimitMutations',
      kind: integer(0),
      default: 60,
      doc: 'Mutation fields (an aliased field counts once per alias) one client address may run per window; past it HTTP 429 with a Retry-After header and extensions.code RATE_LIMITED. The address is the TCP peer, or behind proxies of your own the one they forwarded (TRUST_PROXY_HOPS). Queries are never limited. 0: no limit.',
    }),
    TRUST_PROXY_HOPS: sets({
      key: 'trustProxyHops',
      kind: integer(0, 10),
      default: 0,
      doc: 'Proxies of your own in front of the server (a load balancer, a CDN), whose X-Forwarded-For entries are trusted: the client address of the rate limit is the entry that many places from the right (1: the address nginx in front saw). 0: the TCP peer, and X-Forwarded-For is ignored (a client could forge it).',
    }),
    RATE_LIMIT_WINDOW_MS: sets({
      key: 'rateLimitWindowMs',
      kind: integer(1),
      default: 60_000,
      doc: 'Length of a rate-limit window, ms.',
    }),
  }),
};

/** Every variable's default, by name (an unset INTROSPECTION follows PLAYGROUND, whose default it shares). */
export const DEFAULTS = Object.freeze(
  Object.fromEntries(Object.entries(VARIABLES).map(([name, v]) => [name, v.default])),
) as { readonly [N in keyof typeof VARIABLES]: (typeof VARIABLES)[N]['default'] };

/** Environment variable behind each limit, for error messages. */
export const LIMIT_VARIABLES = Object.fromEntries(
  rows()
    .filter(([, v]) => v.key?.startsWith('limits.'))
    .map(([name, v]) => [v.key?.slice('limits.'.length), name]),
) as Record<keyof Limits, string>;

/** The table's rows as `[name, row]` pairs, in order. */
export function rows(): [string, Variable][] {
  return Object.entries(VARIABLES) as [string, Variable][];
}

type Env = Record<string, string | undefined>;

/** Reads the configuration from `env` (default `process.env`); throws `ConfigError` on a bad value. */
export function loadConfig(env: Env = process.env): Config {
  const values: Record<string, unknown> = {};
  for (const [name, variable] of rows()) {
    const raw = env[name];
    if (raw !== undefined && raw.trim() !== '') values[name] = variable.kind.parse(raw, name);
    else values[name] = variable.follows ? values[variable.follows] : structuredClone(variable.default);
  }
  if (values.PLAYGROUND && !values.INTROSPECTION) {
    throw new ConfigError(
      'PLAYGROUND=true needs INTROSPECTION=true (the playground reads the schema by introspection)',
    );
  }
  const config: Record<string, unknown> = { production: values.NODE_ENV === 'production' };
  const limits: Record<string, unknown> = {};
  for (const [name, { key }] of rows()) {
    if (key?.startsWith('limits.')) limits[key.slice('limits.'.length)] = values[name];
    else if (key) config[key] = values[name];
  }
  config.limits = limits;
  return config as unknown as Config;
}
