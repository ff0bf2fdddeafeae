/**
 * The configuration table: what `loadConfig` makes of the environment, and that the committed
 * `.env.example` and `docs/configuration.md` are exactly what the generator renders from the table.
 */

import { readFileSync } from 'node:fs';
import { DEFAULT_ENGINE_CACHE_BYTES } from '@chess-paths/engine';
import { describe, expect, it } from 'vitest';
import { OUTPUTS } from '../scripts/env-example.js';
import { type Config, ConfigError, DEFAULTS, LIMIT_VARIABLES, loadConfig, rows } from '../src/config.js';
import { DOCUMENT_STORE_BYTES } from '../src/graphql/apollo/document-store.js';
import { SHAPE_CACHE_BYTES } from '../src/graphql/apollo/known-shapes.js';
import { GAME_CACHE_BYTES } from '../src/graphql/caching/game-cache.js';
import { HOT_RESULTS_MAX_BYTES } from '../src/graphql/caching/hot-results.js';
import { PREPARED_QUERY_BYTES } from '../src/graphql/caching/prepared-queries.js';
import { RESPONSE_CACHE_BYTES } from '../src/http/response-cache.js';

/** Every field at its default, written out by hand so a changed default shows up here. */
const EXPECTED_DEFAULTS: Config = {
  port: 4000,
  host: '0.0.0.0',
  databaseUrl: 'file:./data/chess-paths.db',
  databasePoolSize: 10,
  cacheMaxBytes: 268_435_456,
  maxAnalysisBytes: 1_048_576,
  analysesMaxBytes: 268_435_456,
  idempotencyWindowHours: 24,
  workerThreads: 0,
  workQueue: 256,
  heavyRequests: 1,
  admissionQueue: 16,
  admissionTimeoutMs: 2000,
  resultMemoSize: 10_000,
  responseCacheSize: 10_000,
  resultMemoBytes: 67_108_864,
  preparedQueryBytes: 16_777_216,
  responseCacheBytes: 33_554_432,
  gameCacheBytes: 67_108_864,
  documentCacheBytes: 31_457_280,
  shapeCacheBytes: 4_194_304,
  betzaCacheBytes: 4_194_304,
  boardCacheBytes: 33_554_432,
  pathCacheControl: 'public, max-age=31536000, immutable',
  cacheWriteQueue: 10_000,
  cacheWriteGatherMs: 50,
  databaseBusyTimeoutMs: 1000,
  cacheReadWaitMs: 1000,
  databaseRetryMs: 5000,
  logLevel: 'info',
  production: true,
  playground: true,
  introspection: true,
  corsOrigins: ['*'],
  shutdownTimeoutMs: 10_000,
  sendStallMs: 30_000,
  rateLimitMutations: 60,
  rateLimitWindowMs: 60_000,
  trustProxyHops: 0,
  limits: {
    maxBoardSide: 64,
    maxBatchSize: 500,
    maxBatchOperations: 20,
    maxPageSize: 1000,
    maxDepth: 10,
    maxAliases: 30,
    maxCost: 50_000,
    maxTokens: 10_000,
    maxDirectives: 50,
    maxBodyBytes: 1_048_576,
    maxTextLength: 10_000,
    maxPgnBytes: 262_144,
    maxPlies: 1000,
    maxBetzaLength: 1024,
    engineBudgetMs: 2000,
    maxResponseBytes: 16_777_216,
  },
};

describe('loadConfig', () => {
  it('gives every field its default when nothing is set, or only blanks', () => {
    expect(loadConfig({})).toEqual(EXPECTED_DEFAULTS);
    const blanks = Object.fromEntries(rows().map(([name]) => [name, '  ']));
    expect(loadConfig(blanks)).toEqual(EXPECTED_DEFAULTS);
  });

  it('keeps the defaults table in step with the config', () => {
    expect(DEFAULTS.PORT).toBe(4000);
    expect(DEFAULTS.DATABASE_URL).toBe('file:./data/chess-paths.db');
    expect(DEFAULTS.MAX_RESPONSE_BYTES).toBe(16 * 1024 * 1024);
    expect(DEFAULTS.NODE_ENV).toBe('production');
    expect(Object.keys(DEFAULTS)).toEqual(rows().map(([name]) => name));
    expect(LIMIT_VARIABLES).toEqual({
      maxBoardSide: 'MAX_BOARD_SIDE',
      maxBatchSize: 'MAX_BATCH_SIZE',
      maxBatchOperations: 'MAX_BATCH_OPERATIONS',
      maxPageSize: 'MAX_PAGE_SIZE',
      maxDepth: 'MAX_DEPTH',
      maxAliases: 'MAX_ALIASES',
      maxCost: 'MAX_COST',
      maxTokens: 'MAX_TOKENS',
      maxDirectives: 'MAX_DIRECTIVES',
      maxBodyBytes: 'MAX_BODY_BYTES',
      maxTextLength: 'MAX_TEXT_LENGTH',
      maxPgnBytes: 'MAX_PGN_BYTES',
      maxPlies: 'MAX_PLIES',
      maxBetzaLength: 'MAX_BETZA_LENGTH',
      engineBudgetMs: 'ENGINE_BUDGET_MS',
      maxResponseBytes: 'MAX_RESPONSE_BYTES',
    });
  });

  it('does not share the default list between configs', () => {
    loadConfig({}).corsOrigins.push('https://mutated.example');
    expect(loadConfig({}).corsOrigins).toEqual(['*']);
    expect(DEFAULTS.CORS_ORIGINS).toEqual(['*']);
  });

  it('takes valid overrides, trimmed, with digits grouped by underscores', () => {
    const config = loadConfig({
      PORT: ' 8080 ',
      HOST: '127.0.0.1',
      MAX_BOARD_SIDE: '256',
      CACHE_MAX_BYTES: '1_000_000',
      LOG_LEVEL: 'DEBUG',
      NODE_ENV: 'development',
      DATABASE_URL: 'file:/tmp/x.db',
      WORKER_THREADS: '0',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      cacheMaxBytes: 1_000_000,
      logLevel: 'debug',
      production: false,
      databaseUrl: 'file:/tmp/x.db',
      workerThreads: 0,
      limits: { ...EXPECTED_DEFAULTS.limits, maxBoardSide: 256 },
    });
    expect(loadConfig({ NODE_ENV: 'staging' }).production).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' }).production).toBe(true);
  });

  it('refuses a malformed whole number, naming the variable and the value', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(new ConfigError('PORT="abc" is not a whole number, 0 to 65535'));
    expect(() => loadConfig({ MAX_DEPTH: '-1' })).toThrow(
      new ConfigError('MAX_DEPTH="-1" is not a whole number, 1 or more'),
    );
    expect(() => loadConfig({ ENGINE_BUDGET_MS: '1.5' })).toThrow(/^ENGINE_BUDGET_MS="1\.5" is not a whole number, /);
    expect(() => loadConfig({ MAX_COST: '10k' })).toThrow(ConfigError);
    // Underscores group digits, one between two of them.
    expect(loadConfig({ MAX_COST: '1_000_000' }).limits.maxCost).toBe(1_000_000);
    for (const grouped of ['_1000', '1__000', '1_000_', '1_'])
      expect(() => loadConfig({ MAX_COST: grouped }), grouped).toThrow(/^MAX_COST=".*" is not a whole number, /);
  });

  it('refuses a database URL that names no file or is no URL, keeping its password out of the message', () => {
    expect(() => loadConfig({ DATABASE_URL: 'file:' })).toThrow(
      new ConfigError('DATABASE_URL: must name a database file (in-memory databases are not supported): file:'),
    );
    expect(() => loadConfig({ DATABASE_URL: 'file::memory:' })).toThrow(/in-memory databases are not supported/);
    expect(() => loadConfig({ DATABASE_URL: 'file://remote.example/x.db' })).toThrow(/names a remote host/);
    const bad = () => loadConfig({ DATABASE_URL: 'postgresql://u:secret@127.0.0.1:99999/x' });
    expect(bad).toThrow(
      new ConfigError('DATABASE_URL is not a valid postgresql:// URL (postgresql://user:password@host:5432/db)'),
    );
    for (const valid of [
      'postgresql://u:p@db.internal:5432/x',
      'postgresql:///x?host=/var/run/postgresql',
      'postgresql:///x',
    ])
      expect(loadConfig({ DATABASE_URL: valid }).databaseUrl).toBe(valid);
  });

  it('refuses a value out of range, naming the variable, the value and the range', () => {
    expect(() => loadConfig({ MAX_BOARD_SIDE: '300' })).toThrow(
      new ConfigError('MAX_BOARD_SIDE=300 is outside 1..256'),
    );
    expect(() => loadConfig({ PORT: '65536' })).toThrow(new ConfigError('PORT=65536 is outside 0..65535'));
    expect(() => loadConfig({ MAX_BATCH_SIZE: '0' })).toThrow(/^MAX_BATCH_SIZE=0 is outside 1\.\./);
    expect(() => loadConfig({ WORKER_THREADS: '257' })).toThrow(/WORKER_THREADS=257 is outside 0\.\.256/);
    expect(loadConfig({ MAX_ALIASES: '0' }).limits.maxAliases).toBe(0);
  });

  it('reads booleans in their usual spellings and refuses others', () => {
    for (const yes of ['true', 'TRUE', '1', 'yes', 'on']) expect(loadConfig({ PLAYGROUND: yes }).playground).toBe(true);
    for (const no of ['false', '0', 'No', 'off']) {
      expect(loadConfig({ PLAYGROUND: no, INTROSPECTION: no })).toMatchObject({
        playground: false,
        introspection: false,
      });
    }
    expect(() => loadConfig({ PLAYGROUND: 'maybe' })).toThrow(
      new ConfigError('PLAYGROUND="maybe" is not a boolean (true or false; also 1/0, yes/no, on/off)'),
    );
  });

  it('lets INTROSPECTION follow PLAYGROUND unless set, and refuses a playground without it', () => {
    expect(loadConfig({ PLAYGROUND: 'false' })).toMatchObject({ playground: false, introspection: false });
    expect(loadConfig({ PLAYGROUND: 'false', INTROSPECTION: 'true' })).toMatchObject({ introspection: true });
    expect(() => loadConfig({ INTROSPECTION: 'false' })).toThrow(/PLAYGROUND=true needs INTROSPECTION=true/);
  });

  it('reads the origins list, comma-separated, and refuses what is not an origin', () => {
    expect(loadConfig({ CORS_ORIGINS: '' }).corsOrigins).toEqual(['*']); // unset: any origin
    expect(loadConfig({ CORS_ORIGINS: 'none' }).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: ' None ' }).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
    expect(loadConfig({ CORS_ORIGINS: ' https://a.example , http://localhost:3000,,' }).corsOrigins).toEqual([
      'https://a.example',
      'http://localhost:3000',
    ]);
    expect(() => loadConfig({ CORS_ORIGINS: 'https://a.example/app' })).toThrow(
      /^CORS_ORIGINS="https:\/\/a\.example\/app": "https:\/\/a\.example\/app" is not an origin/,
    );
    expect(() => loadConfig({ CORS_ORIGINS: 'https://a.example,a.example' })).toThrow(/CORS_ORIGINS=.*"a\.example"/);
  });

  it('reads the bounds of the caches in memory, bytes, keeping the counts beside them', () => {
    const config = loadConfig({
      GAME_CACHE_BYTES: '8_388_608',
      DOCUMENT_CACHE_BYTES: '0',
      SHAPE_CACHE_BYTES: '65536',
      RESULT_MEMO_BYTES: '1048576',
      PREPARED_QUERY_BYTES: '2_097_152',
      RESPONSE_CACHE_BYTES: '3145728',
      BETZA_CACHE_BYTES: '262144',
      BOARD_CACHE_BYTES: '1',
      RESULT_MEMO_SIZE: '500',
      RESPONSE_CACHE_SIZE: '0',
    });
    expect(config).toMatchObject({
      gameCacheBytes: 8_388_608,
      documentCacheBytes: 0,
      shapeCacheBytes: 65_536,
      resultMemoBytes: 1_048_576,
      preparedQueryBytes: 2_097_152,
      responseCacheBytes: 3_145_728,
      betzaCacheBytes: 262_144,
      boardCacheBytes: 1,
      resultMemoSize: 500,
      responseCacheSize: 0,
    });
    expect(() => loadConfig({ GAME_CACHE_BYTES: '64MiB' })).toThrow(
      new ConfigError('GAME_CACHE_BYTES="64MiB" is not a whole number, 0 or more'),
    );
    expect(() => loadConfig({ BOARD_CACHE_BYTES: '-1' })).toThrow(/^BOARD_CACHE_BYTES="-1" is not a whole number/);
    // The defaults are the caches' own, so a cache made without a configuration is bounded alike.
    expect([
      DEFAULTS.GAME_CACHE_BYTES,
      DEFAULTS.RESULT_MEMO_BYTES,
      DEFAULTS.PREPARED_QUERY_BYTES,
      DEFAULTS.RESPONSE_CACHE_BYTES,
      DEFAULTS.DOCUMENT_CACHE_BYTES,
      DEFAULTS.SHAPE_CACHE_BYTES,
      DEFAULTS.BETZA_CACHE_BYTES,
      DEFAULTS.BOARD_CACHE_BYTES,
    ]).toEqual([
      GAME_CACHE_BYTES,
      HOT_RESULTS_MAX_BYTES,
      PREPARED_QUERY_BYTES,
      RESPONSE_CACHE_BYTES,
      DOCUMENT_STORE_BYTES,
      SHAPE_CACHE_BYTES,
      DEFAULT_ENGINE_CACHE_BYTES.betza,
      DEFAULT_ENGINE_CACHE_BYTES.boards,
    ]);
    // The cache settings are one group of the docs.
    const memory = rows()
      .filter(([, v]) => v.group.heading === 'Memory')
      .map(([name]) => name);
    expect(memory).toEqual([
      'RESULT_MEMO_SIZE',
      'RESULT_MEMO_BYTES',
      'PREPARED_QUERY_BYTES',
      'RESPONSE_CACHE_SIZE',
      'RESPONSE_CACHE_BYTES',
      'GAME_CACHE_BYTES',
      'DOCUMENT_CACHE_BYTES',
      'SHAPE_CACHE_BYTES',
      'BETZA_CACHE_BYTES',
      'BOARD_CACHE_BYTES',
    ]);
  });

  it('refuses an unknown log level and a database URL that is neither file: nor postgresql://', () => {
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(
      new ConfigError('LOG_LEVEL="loud" is not one of fatal, error, warn, info, debug, trace, silent'),
    );
    expect(() => loadConfig({ DATABASE_URL: 'mysql://db/x' })).toThrow(
      new ConfigError('DATABASE_URL="mysql://db/x" is neither a SQLite file: URL nor a postgresql:// URL'),
    );
    for (const url of ['postgresql://u:p@db:5432/x', 'postgres://db/x']) {
      expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
    }
  });
});

describe('the table', () => {
  it('has a description, a group and a parsable default for every variable', () => {
    const names = rows().map(([name]) => name);
    for (const [name, variable] of rows()) {
      expect(name).toMatch(/^[A-Z][A-Z0-9_]*$/);
      expect(variable.doc, name).toMatch(/^\S.*[.)]$/);
      expect(variable.doc, name).not.toContain('\n');
      expect(variable.group.heading, name).not.toBe('');
      // The default, written out and read back, is the default.
      expect(variable.kind.parse(variable.kind.show(variable.default), name), name).toEqual(variable.default);
      if (variable.follows) expect(names.indexOf(variable.follows), name).toBeLessThan(names.indexOf(name));
    }
  });

  it('sets each variable into the config field it names', () => {
    for (const [name, variable] of rows()) {
      if (!variable.key || typeof variable.default !== 'number') continue;
      const value = variable.default === 7 ? 8 : 7;
      const config = loadConfig({ [name]: String(value) }) as unknown as Record<string, unknown>;
      const [outer, inner] = variable.key.split('.');
      const field = inner === undefined ? config[outer] : (config[outer] as Record<string, unknown>)[inner];
      expect(field, name).toBe(value);
    }
  });
});

describe('the generated files', () => {
  for (const [path, render] of Object.entries(OUTPUTS)) {
    it(`${path} is what \`npm run env:example\` writes`, () => {
      const committed = readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
      expect(committed, `${path} is stale: run npm run env:example`).toBe(render());
    });
  }

  it('.env.example sets every variable to its default', () => {
    const text = readFileSync(new URL('../.env.example', import.meta.url), 'utf8');
    const assignments = text.split('\n').filter((line) => /^[A-Z_]+=/.test(line));
    expect(assignments).toEqual(rows().map(([name, v]) => `${name}=${v.kind.show(v.default)}`));
  });
});
