/**
 * What the load benchmarks (`bench/load.ts`, `bench/cluster.ts`) share: bench:load's request mix
 * (50 % cached path questions, 30 % new ones, 20 % analysis saves of three queries) as autocannon
 * requests that tally failures and latency per kind, the cached set and its warm-up, and the helpers
 * around them (the autocannon types, building dist/, starting on /health, latency percentiles).
 *
 * It lives in its own module because bench/load.ts runs its benchmark when imported; this one does
 * nothing on import but define things, so both benchmarks measure the same mix from one source.
 */
import { type ChildProcess, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PIECES, randomQuestion, square } from './questions.js';

/** Latency percentiles, ms. */
export interface Latency {
  p50: number;
  p99: number;
  max: number;
}
interface Histogram extends Latency {
  average: number;
  mean: number;
  p90: number;
  p99_9: number;
  total: number;
}
/** The part of autocannon's result the benchmarks read. */
export interface AutocannonResult {
  requests: Histogram & { sent: number };
  latency: Histogram;
  errors: number;
  timeouts: number;
  non2xx: number;
  resets: number;
  statusCodeStats: Record<string, { count: number }>;
  duration: number;
}
/** One autocannon request template, with the hooks the mix uses. */
export interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  timeout?: number;
  requests?: AutocannonRequest[];
}) => Promise<AutocannonResult>;

/** The autocannon package (CommonJS, untyped). */
export const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
/** The repository's root folder. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Environment of the server under load: the shipped configuration but for quiet logs and no mutation limit. */
export const SERVER_ENV = { NODE_ENV: 'production', LOG_LEVEL: 'warn', RATE_LIMIT_MUTATIONS: '0' };
/** Share of each kind of request in the mix. */
export const MIX = { cached: 0.5, uncached: 0.3, save: 0.2 } as const;
/** A kind of request in the mix. */
export type Kind = keyof typeof MIX;

// ---------------------------------------------------------------------------------------------
// Requests

const SEED = { piece: 'KING', from: ['e4'], to: ['a1', 'h8'] };
/** The cached set: the seed and 100 distinct 8 x 8 questions. */
export const CACHED = [
  SEED,
  ...Array.from({ length: 100 }, (_, i) => ({
    piece: PIECES[i % 5],
    from: [square(i % 64)],
    to: [square((i * 37 + 11) % 64)],
  })),
];

const PATH_QUERY = 'query Path($q: PathQuery!) { shortestPaths(query: $q) { key distance layers { squares } cached } }';
const SAVE =
  'mutation Save($i: SaveAnalysisInput!) { saveAnalysis(input: $i) { editToken analysis { id results { distance } } } }';
/** A GraphQL request body. */
export const body = (query: string, variables: unknown) => JSON.stringify({ query, variables });
const pickCached = () => CACHED[Math.floor(Math.random() * CACHED.length)];

/** A random body of `kind`; saves are titled `<name> <random>` with the notes `bench:<name>`. */
export function requestBody(kind: Kind, name: string): string {
  if (kind === 'cached') return body(PATH_QUERY, { q: pickCached() });
  if (kind === 'uncached') return body(PATH_QUERY, { q: randomQuestion() });
  return body(SAVE, {
    i: {
      title: `${name} ${Math.random().toString(36).slice(2)}`,
      notes: `bench:${name}`,
      queries: [pickCached(), pickCached(), randomQuestion()],
    },
  });
}

/** A random kind, in the proportions of MIX. */
export function pickKind(): Kind {
  const r = Math.random();
  return r < MIX.cached ? 'cached' : r < MIX.cached + MIX.uncached ? 'uncached' : 'save';
}

// ---------------------------------------------------------------------------------------------
// Tallying the answers

/** What a run of the mix sent, how it failed and how long each kind took. */
export interface Tally {
  sent: Record<Kind, number>;
  failed: Record<string, number>;
  samples: string[];
  /** Client-side latency per kind, ms (from building the request to reading the answer). */
  latency: Record<Kind, number[]>;
}

/** An empty tally. */
export const newTally = (): Tally => ({
  sent: { cached: 0, uncached: 0, save: 0 },
  failed: {},
  samples: [],
  latency: { cached: [], uncached: [], save: [] },
});

/** Why an answer failed ('' when it did not): its HTTP status, or its GraphQL error codes. */
export function failureCodes(status: number, text: string): string {
  if (status !== 200) return `HTTP ${status}`;
  if (!text.includes('"errors"')) return '';
  try {
    const codes = ((JSON.parse(text) as { errors?: { extensions?: { code?: string } }[] }).errors ?? []).map(
      (e) => e.extensions?.code ?? '?',
    );
    return codes.length > 0 ? codes.join('+') : '';
  } catch {
    return 'unparsable answer';
  }
}

/** The mix as autocannon requests that count into `tally`, failures keyed `<kind>: <why(status, text)>`. */
export function loadRequests(
  tally: Tally,
  name: string,
  why: (status: number, text: string) => string = failureCodes,
): AutocannonRequest[] {
  return [
    {
      method: 'POST',
      path: '/graphql',
      headers: { 'content-type': 'application/json' },
      setupRequest: (req, context) => {
        const kind = pickKind();
        context.kind = kind;
        context.started = performance.now();
        tally.sent[kind]++;
        return { ...req, body: requestBody(kind, name) };
      },
      onResponse: (status, text, context) => {
        const kind = context.kind as Kind;
        tally.latency[kind].push(performance.now() - (context.started as number));
        const reason = why(status, text);
        if (reason) {
          const key = `${kind}: ${reason}`;
          tally.failed[key] = (tally.failed[key] ?? 0) + 1;
          if (tally.samples.length < 5) tally.samples.push(`${key}: ${text.slice(0, 300)}`);
        }
      },
    },
  ];
}

/** p50, p99 and max of `values`, rounded. */
export function percentiles(values: number[]): Latency {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted.length === 0 ? 0 : Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
  return { p50: at(0.5), p99: at(0.99), max: Math.round(sorted[sorted.length - 1] ?? 0) };
}

/** The percentiles of each kind's latency in `tally`. */
export function latencyByKind(tally: Tally): Record<Kind, Latency> {
  return {
    cached: percentiles(tally.latency.cached),
    uncached: percentiles(tally.latency.uncached),
    save: percentiles(tally.latency.save),
  };
}

// ---------------------------------------------------------------------------------------------
// The server

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((entry) => newestMtime(join(path, entry))));
}

/** Runs `npm run build` when dist/server.js is missing or older than src/ (never when `skip` and it exists). */
export function ensureBuilt(skip: boolean): void {
  const built = join(root, 'dist', 'server.js');
  if (skip && existsSync(built)) return;
  if (existsSync(built) && newestMtime(join(root, 'src')) <= newestMtime(join(root, 'dist'))) return;
  console.log('dist/ is missing or older than src/: npm run build');
  const run = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) throw new Error('npm run build failed');
}

/** The status of `${url}/health`, 0 when it does not answer. */
export const healthStatus = (url: string): Promise<number> =>
  fetch(`${url}/health`).then(
    (r) => r.status,
    () => 0,
  );

/** Polls /health every 50 ms, `attempts` times at most, until it answers 200 or `child` exits. */
export async function untilHealthy(
  url: string,
  child: ChildProcess,
  attempts: number,
): Promise<'healthy' | 'exited' | 'timed out'> {
  for (let i = 0; i < attempts; i++) {
    if (child.exitCode !== null) return 'exited';
    if ((await healthStatus(url)) === 200) return 'healthy';
    await new Promise((r) => setTimeout(r, 50));
  }
  return 'timed out';
}

/** POSTs a GraphQL body to `${url}/graphql` and returns the parsed answer. */
export async function post(url: string, text: string): Promise<{ data?: any; errors?: unknown }> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: text,
  });
  return (await res.json()) as { data?: any; errors?: unknown };
}

/** Asks the cached set of `url`, `attempts` times at most, until every answer is cached; true when it was. */
export async function warmCache(url: string, attempts: number): Promise<boolean> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const res = await post(
      url,
      body('query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { cached } }', { q: CACHED }),
    );
    if (res.errors) throw new Error(`warm-up failed: ${JSON.stringify(res.errors).slice(0, 300)}`);
    if ((res.data.shortestPathsBatch as { cached: boolean }[]).every((r) => r.cached)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
