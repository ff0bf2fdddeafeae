/**
 * Test helpers: start a real server on a random loopback port (with a throw-away SQLite file, or
 * with no database at all), send GraphQL over real HTTP, and read counters from /metrics.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { type RunningServer, type ServerDeps, startServer } from '../../src/server.js';

/** A started test server and a GraphQL client for it. */
export interface TestServer {
  server: RunningServer;
  url: string;
  /** POSTs a GraphQL request; returns the HTTP status and the parsed JSON body. */
  gql(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<GqlResponse>;
  /** Current value of a metric (summed over label sets matching `labels`). */
  metric(name: string, labels?: Record<string, string>): Promise<number>;
  close(): Promise<void>;
}

/** A GraphQL response over HTTP. */
export interface GqlResponse {
  status: number;
  body: {
    data?: any;
    errors?: { message: string; extensions?: Record<string, any>; path?: (string | number)[] }[];
  };
}

/** Options: environment overrides (as strings), server deps, and whether to use a database. */
export interface StartOptions {
  env?: Record<string, string>;
  deps?: ServerDeps;
  /** Default true: a fresh SQLite file in a temporary directory. */
  database?: boolean;
}

/** Starts a server for a test file. */
export async function startTestServer(options: StartOptions = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'chess-paths-test-'));
  const useDb = options.database ?? true;
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATABASE_URL: `file:${join(dir, 'test.db')}`,
    ...options.env,
  });
  const deps: ServerDeps = { ...(useDb ? {} : { openStore: null }), ...options.deps };
  const server = await startServer(config, deps);
  await server.ready;
  const url = server.url;
  return {
    server,
    url,
    async gql(query, variables, headers = {}) {
      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query, variables }),
      });
      return { status: res.status, body: (await res.json()) as GqlResponse['body'] };
    },
    async metric(name, labels = {}) {
      const text = await (await fetch(`${url}/metrics`)).text();
      return sumMetric(text, name, labels);
    },
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Sums the samples of `name` whose labels include `labels`, in Prometheus text format. */
export function sumMetric(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(\{([^}]*)\})?\s+(\S+)/.exec(line);
    if (!match || match[1] !== name) continue;
    const have: Record<string, string> = {};
    for (const pair of (match[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) have[pair[1]] = pair[2];
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) sum += Number(match[4]);
  }
  return sum;
}

/** The seed's worked example as a PathQuery literal. */
export const SEED_QUERY = '{ piece: KING, from: ["e4"], to: ["a1", "h8"] }';

/**
 * The seed's diagram of the example's five layers. The seed's own text has five spaces between
 * its second and third boards (a typo of the original page); the contract is three spaces between
 * every two boards, so that is what is written here.
 */
export const SEED_DIAGRAM = [
  '. . . . . . . .   . . . . . . . .   . . . . . . . .   . . . . . . . .   . . . . . . . 1',
  '. . . . . . . .   . . . . . . . .   . . . . . . . .   . . . . . . 1 1   . . . . . . . .',
  '. . . . . . . .   . . . . . . . .   . . . . . 1 1 .   . . . . . . . .   . . . . . . . .',
  '. . . . . . . .   . . . . 1 1 . .   . . . . . . . .   . . . . . . . .   . . . . . . . .',
  '. . . . 1 . . .   . . . 1 . . . .   . . . . . . . .   . . . . . . . .   . . . . . . . .',
  '. . . . . . . .   . . . 1 . . . .   . . 1 . . . . .   . . . . . . . .   . . . . . . . .',
  '. . . . . . . .   . . . . . . . .   . . 1 . . . . .   . 1 . . . . . .   . . . . . . . .',
  '. . . . . . . .   . . . . . . . .   . . . . . . . .   . 1 . . . . . .   1 . . . . . . .',
].join('\n');
