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

/**
 * A minimal XML well-formedness check (no external parser is installed): every tag closes in
 * order, attributes are quoted, entities are known, and there is exactly one root element.
 * Returns the root element's name.
 */
export function checkWellFormedXml(xml: string): string {
  const stack: string[] = [];
  let root = '';
  let roots = 0;
  const tag =
    /<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[A-Za-z_][\w:.-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>|<\?xml[^?]*\?>|<!--[\s\S]*?-->/g;
  let last = 0;
  let match: RegExpExecArray | null;
  while ((match = tag.exec(xml)) !== null) {
    const text = xml.slice(last, match.index);
    if (/[<>]/.test(text)) throw new Error(`stray markup near ${JSON.stringify(text.slice(0, 60))}`);
    if (/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(text))
      throw new Error(`bad entity in ${text.slice(0, 60)}`);
    if (stack.length === 0 && text.trim() !== '') throw new Error('text outside the root element');
    last = tag.lastIndex;
    if (match[2] === undefined) continue; // declaration or comment
    const [, closing, name, , selfClosing] = match;
    if (closing) {
      const open = stack.pop();
      if (open !== name) throw new Error(`</${name}> closes <${open}>`);
    } else {
      if (stack.length === 0) {
        roots++;
        root = name;
      }
      if (!selfClosing) stack.push(name);
    }
  }
  if (xml.slice(last).trim() !== '') throw new Error('text after the root element');
  if (stack.length > 0) throw new Error(`unclosed <${stack.join('>, <')}>`);
  if (roots !== 1) throw new Error(`${roots} root elements`);
  return root;
}
