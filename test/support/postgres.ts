/**
 * PostgreSQL for tests: a fresh database per test on the machine's server, and the two databases
 * the store tests run against.
 *
 * `createTestDatabase()` creates `chess_paths_test_<random>` through `pg` on the server's
 * `postgres` database and returns its URL and `drop()` (`DROP DATABASE ... WITH (FORCE)`, which
 * also ends connections a failed test left open). The server is `TEST_POSTGRES_URL` (a URL
 * without a database name; default `postgresql://postgres@127.0.0.1:5432`).
 *
 * Whether the server answers is found out once, when this module loads. When it does not,
 * outside CI (`CI` unset) the PostgreSQL variants are skipped with a console warning, as
 * `test/server.playground.test.ts` does for Chromium; in CI they run and fail, because a CI
 * that silently skipped them would vouch for nothing.
 *
 * `STORE_DATABASES` lists SQLite (a file in a temporary directory) and PostgreSQL (a fresh
 * database), each able to make a new, empty database; `describeEachDatabase(title, body)` is
 * `describe` once per database (`<title> on SQLite`, `<title> on PostgreSQL`), the PostgreSQL one
 * skipped when it is to be: tests of the store's contract run over both with it.
 * `useTestStores(database)` gives each test of such a `describe` a fresh database and closes the
 * stores it opened, then drops the database.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe } from 'vitest';
import { type OpenedStore, openStore, redactUrl, type StoreExtras, type StoreOptions } from '../../src/store/index.js';
import { recordingLogger, tempDir } from './store-fixtures.js';

/** The server tests use: a URL without a database name. */
export const TEST_POSTGRES_URL = (process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432').replace(
  /\/+$/,
  '',
);

/** `TEST_POSTGRES_URL` with a database name (and the URL's query string, if any, kept). */
export function postgresUrl(database: string): string {
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

/** A client on the server's `postgres` database (for CREATE and DROP DATABASE). */
async function adminClient(connectTimeoutMs = 5000): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: postgresUrl('postgres'),
    connectionTimeoutMillis: connectTimeoutMs,
  });
  client.on('error', () => undefined); // a server going away must not crash the test process
  await client.connect();
  return client;
}

/** Why the server cannot be used (undefined when it answers), found once at load. */
const unreachable: string | undefined = await (async () => {
  try {
    const client = await adminClient(3000);
    await client.end();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
})();

const inCi = Boolean(process.env.CI);

/** True when PostgreSQL tests are to be skipped: the server does not answer, outside CI. */
export const skipPostgres = unreachable !== undefined && !inCi;

if (skipPostgres) {
  console.warn(
    `Skipping the PostgreSQL variants of the store tests: ${redactUrl(TEST_POSTGRES_URL)} does not answer (${unreachable}). ` +
      'Start PostgreSQL or set TEST_POSTGRES_URL; in CI (CI set) they fail instead.',
  );
}

/** A database of its own for one test. */
export interface TestDatabase {
  /** Its URL, for `openStore`'s `databaseUrl`. */
  url: string;
  /** Removes it (idempotent). */
  drop(): Promise<void>;
}

/** Creates an empty database with a random name; see the file comment. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (unreachable !== undefined) {
    throw new Error(`PostgreSQL at ${redactUrl(TEST_POSTGRES_URL)} does not answer: ${unreachable}`);
  }
  const name = `chess_paths_test_${randomBytes(8).toString('hex')}`;
  const admin = await adminClient();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  let dropped: Promise<void> | undefined;
  return {
    url: postgresUrl(name),
    drop() {
      dropped ??= (async () => {
        const client = await adminClient();
        try {
          await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        } finally {
          await client.end();
        }
      })();
      return dropped;
    },
  };
}

/** Runs `sql` (with `$1`... parameters) on its own short-lived connection to `url`. */
export async function queryPostgres<T extends pg.QueryResultRow = Record<string, unknown>>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** One of the databases the store speaks, able to make fresh, empty databases of its kind. */
export interface StoreDatabase {
  name: 'SQLite' | 'PostgreSQL';
  dialect: 'sqlite' | 'postgresql';
  /** True when this variant is to be skipped (PostgreSQL unreachable outside CI). */
  skip: boolean;
  /** A new empty database: a file in a temporary directory, or a PostgreSQL database. */
  create(): Promise<TestDatabase>;
}

export const SQLITE: StoreDatabase = {
  name: 'SQLite',
  dialect: 'sqlite',
  skip: false,
  async create() {
    const { dir, cleanup } = tempDir();
    return { url: `file:${join(dir, 'store.db')}`, drop: async () => cleanup() };
  },
};

export const POSTGRESQL: StoreDatabase = {
  name: 'PostgreSQL',
  dialect: 'postgresql',
  skip: skipPostgres,
  create: createTestDatabase,
};

/** Both, SQLite first (`describeEachDatabase` runs over them). */
export const STORE_DATABASES: readonly StoreDatabase[] = [SQLITE, POSTGRESQL];

/**
 * `describe(`${title} on ${database.name}`, () => body(database))` for each of `STORE_DATABASES`;
 * a skipped database's tests show as skipped (and run none of their hooks).
 */
export function describeEachDatabase(title: string, body: (database: StoreDatabase) => void): void {
  for (const database of STORE_DATABASES) {
    describe.skipIf(database.skip)(`${title} on ${database.name}`, () => body(database));
  }
}

/** Budgets of the stores `useTestStores` opens, unless a test gives others. */
const DEFAULT_OPTIONS = { maxCacheBytes: 1 << 20, maxAnalysisBytes: 1 << 20, maxAnalysesBytes: 0 };

/**
 * Registers hooks (call inside a `describe`): a fresh database of `database`'s kind before each
 * test; after it, the stores opened through `open` are closed and the database dropped.
 */
export function useTestStores(database: StoreDatabase) {
  let current: TestDatabase | undefined;
  const open: OpenedStore[] = [];
  beforeEach(async () => {
    current = await database.create();
  });
  afterEach(async () => {
    try {
      for (const store of open.splice(0)) await store.close();
    } finally {
      await current?.drop();
      current = undefined;
    }
  });
  const url = (): string => {
    if (!current) throw new Error('useTestStores: no database outside a test');
    return current.url;
  };
  return {
    /** The test's database URL. */
    url,
    /** Opens a store on the test's database (a recording logger unless `extras` gives one). */
    async open(options: Partial<StoreOptions> = {}, extras: StoreExtras = {}): Promise<OpenedStore> {
      const store = await openStore(
        { databaseUrl: url(), ...DEFAULT_OPTIONS, ...options },
        { logger: recordingLogger(), ...extras },
      );
      open.push(store);
      return store;
    },
    /** Closes a store `open` gave. */
    async close(store: OpenedStore): Promise<void> {
      const at = open.indexOf(store);
      if (at >= 0) open.splice(at, 1);
      await store.close();
    },
  };
}
