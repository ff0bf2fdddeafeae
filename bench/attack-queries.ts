/**
 * What `bench/attack.ts` sends: 64 x 64 maze and corridor masks, the attack request bodies, an
 * HTTP client that measures one request (status, reset, timeout, GraphQL error codes, a body cut
 * before its Content-Length, Retry-After) without parsing large answers, and the probe worker that
 * times `GET /health` and `{ __typename }` on connections of its own, in its own thread so that the
 * attack's clients cannot delay it (and notes when the worst probe started, on the clock of a CPU
 * profile, to find what the server was doing then).
 */
import { type Agent, request } from 'node:http';
import { Worker } from 'node:worker_threads';

export const SIDE = 64;
const BOARD = { files: SIDE, ranks: SIDE };

/** Letters of a 0-based file (a..z, aa..), as in packages/engine/src/board/squares.ts. */
function fileName(file: number): string {
  let out = '';
  for (let f = file + 1; f > 0; f = Math.floor((f - 1) / 26)) out = String.fromCharCode(97 + ((f - 1) % 26)) + out;
  return out;
}
const name = ([file, rank]: readonly [number, number]) => `${fileName(file)}${rank + 1}`;
const maskText = (cells: readonly (readonly [number, number])[]) => {
  let mask = 0n;
  for (const [file, rank] of cells) mask |= 1n << BigInt(rank * SIDE + file);
  return `0x${mask.toString(16).padStart((SIDE * SIDE) / 4, '0')}`;
};

/**
 * A serpentine corridor `width` squares wide: corridors of `width` ranks separated by one wall
 * rank with a `width`-square gap at alternate ends. Returns the mask and the corridor's squares
 * in walking order (the first rank of each corridor, then the gap; enough to pick from/to pairs).
 */
function serpentine(width: number): { mask: string; walk: [number, number][] } {
  const cells: [number, number][] = [];
  const walk: [number, number][] = [];
  const period = width + 1;
  const corridors = Math.floor((SIDE + 1) / period);
  for (let c = 0; c < corridors; c++) {
    const rightward = c % 2 === 0;
    for (let w = 0; w < width; w++) for (let f = 0; f < SIDE; f++) cells.push([f, c * period + w]);
    for (let i = 0; i < SIDE; i++) walk.push([rightward ? i : SIDE - 1 - i, c * period]);
    if (c === corridors - 1) break;
    for (let g = 0; g < width; g++) {
      const gap: [number, number] = [rightward ? SIDE - 1 - g : g, c * period + width];
      cells.push(gap);
      if (g === 0) walk.push(gap);
    }
  }
  return { mask: maskText(cells), walk };
}

export const MAZE = serpentine(1);
export const CORRIDORS = serpentine(2);

/** Maze KING question n (n < 40,000): from one of the first 200 corridor squares to one of the last 200. */
export function mazeQuestion(n: number, maze = MAZE) {
  const last = maze.walk.length - 1;
  return {
    piece: 'KING',
    board: BOARD,
    mask: maze.mask,
    from: [name(maze.walk[n % 200])],
    to: [name(maze.walk[last - Math.floor(n / 200)])],
  };
}
/** Open-board KING question n (n < 16,384), all distinct. */
export function openQuestion(n: number) {
  const from = n % 4096;
  const to = (Math.floor(n / 4096) * 1000 + 4095 - from) % 4096;
  return { piece: 'KING', board: BOARD, from: [name([from % SIDE, from >> 6])], to: [name([to % SIDE, to >> 6])] };
}

export const body = (query: string, variables: Record<string, unknown> = {}) => JSON.stringify({ query, variables });
const range = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i);

/** `count` aliases, each a batch `$q<i>` of `size` questions from `question(n)`, selecting `fields`. */
export function aliasedBatches(
  count: number,
  size: number,
  fields: string,
  question: (n: number) => unknown,
  maxBytes: number,
) {
  const batches: unknown[][] = [];
  let bytes = 0;
  for (let a = 0; a < count; a++) {
    const batch = range(size, a * size).map(question);
    bytes += JSON.stringify(batch).length;
    if (a > 0 && bytes > maxBytes) break; // past the body limit: the remaining aliases reuse batches
    batches.push(batch);
  }
  const params = batches.map((_, b) => `$q${b}: [PathQuery!]!`).join(', ');
  const selections = range(count)
    .map((a) => `a${a}: shortestPathsBatch(queries: $q${a % batches.length}) { ${fields} }`)
    .join(' ');
  const variables = Object.fromEntries(batches.map((batch, b) => [`q${b}`, batch]));
  return { text: body(`query(${params}) { ${selections} }`, variables), distinctQuestions: batches.length * size };
}

export const MAZE_BATCH = body(
  'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { distance layers { squares } cached } }',
  {
    q: range(500).map((n) => mazeQuestion(n)),
  },
);

export const CORRIDOR_PATHS = body(
  `query($n: Int!, ${range(4)
    .map((i) => `$q${i}: PathQuery!`)
    .join(', ')}) { ${range(4)
    .map(
      (i) => `p${i}: shortestPaths(query: $q${i}) { distance paths(first: $n) { edges { cursor node { squares } } } }`,
    )
    .join(' ')} }`,
  { n: 1000, ...Object.fromEntries(range(4).map((i) => [`q${i}`, mazeQuestion(i * 201, CORRIDORS)])) },
);

export const MAZE_ASCII = body(
  'query($q: PathQuery!) { shortestPaths(query: $q) { distance overlay { ascii svg } } }',
  { q: mazeQuestion(0) },
);

export const saveBody = (a: number) =>
  body('mutation($i: SaveAnalysisInput!) { saveAnalysis(input: $i) { analysis { id } } }', {
    i: { title: `attack ${a}`, queries: range(500, a * 500).map((n) => mazeQuestion(n)) },
  });

export const ANALYSES_LIST = body('{ analyses(first: 1000) { edges { node { results { distance } } } } }');

/** A valid `{ __typename }` request padded with whitespace to `bytes`. */
export const paddedTypename = (bytes: number) => {
  const text = body('{ __typename }');
  return text + ' '.repeat(Math.max(0, bytes - text.length));
};

// ---------------------------------------------------------------------------------------------
// Measured requests

export interface Outcome {
  ms: number;
  /** HTTP status (also when the body was then cut: see `cut`), or `reset`, `timeout` or a socket error code. */
  status: string;
  bytes: number;
  /** `errors[].extensions.code` counts. */
  codes: Record<string, number>;
  /** Occurrences of `"cached":true` in the answer. */
  cachedTrue: number;
  /** The first error's message, cut to 200 characters. */
  firstError?: string;
  /** A body that ended before its Content-Length, or whose connection broke after the status came. */
  cut?: boolean;
  /** A Retry-After header came with the answer. */
  retryAfter?: boolean;
}

function count(buf: Buffer, needle: string): number {
  let n = 0;
  for (let i = buf.indexOf(needle); i >= 0; i = buf.indexOf(needle, i + needle.length)) n++;
  return n;
}

function scan(buf: Buffer): Pick<Outcome, 'codes' | 'cachedTrue' | 'firstError'> {
  const codes: Record<string, number> = {};
  const at = buf.indexOf('"errors":[');
  const errors = at >= 0 ? buf.toString('utf8', at) : '';
  for (const m of errors.matchAll(/"code":"([A-Za-z0-9_]+)"/g)) codes[m[1]] = (codes[m[1]] ?? 0) + 1;
  const firstError = /"message":"((?:[^"\\]|\\.)*)"/.exec(errors)?.[1].slice(0, 200);
  return { codes, cachedTrue: count(buf, '"cached":true'), firstError };
}

export interface SendOptions {
  /** Whole-request time limit, ms. */
  timeoutMs: number;
  /** Send the body in chunks of `chunkBytes` every `chunkMs` instead of at once. */
  chunkBytes?: number;
  chunkMs?: number;
  /** Called once the whole body has been written. */
  onSent?: () => void;
}

/** POSTs `text` to `${url}/graphql` on `agent` and measures it; never rejects. */
export function send(url: string, agent: Agent, text: string, options: SendOptions): Promise<Outcome> {
  const { hostname, port } = new URL(url);
  const payload = Buffer.from(text);
  const started = performance.now();
  return new Promise((resolve) => {
    let timedOut = false;
    let pacer: NodeJS.Timeout | undefined;
    const finish = (status: string, chunks: Buffer[] = [], extra: Pick<Outcome, 'cut' | 'retryAfter'> = {}) => {
      clearTimeout(timer);
      clearInterval(pacer);
      const buf = Buffer.concat(chunks);
      resolve({ ms: performance.now() - started, status, bytes: buf.length, ...scan(buf), ...extra });
    };
    const req = request(
      {
        hostname,
        port,
        agent,
        method: 'POST',
        path: '/graphql',
        headers: { 'content-type': 'application/json', 'content-length': payload.length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        const retryAfter = res.headers['retry-after'] !== undefined;
        const length = Number(res.headers['content-length'] ?? Number.NaN);
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const bytes = chunks.reduce((n, c) => n + c.length, 0);
          const cut = !res.complete || (length >= 0 && bytes < length);
          finish(String(res.statusCode), chunks, { retryAfter, cut });
        });
        // The connection broke mid-body: the status came, the body is cut.
        res.on('error', () => finish(timedOut ? 'timeout' : String(res.statusCode), chunks, { retryAfter, cut: true }));
      },
    );
    const timer = setTimeout(() => {
      timedOut = true;
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) =>
      finish(
        timedOut
          ? 'timeout'
          : err.code === 'ECONNRESET' || err.message === 'socket hang up'
            ? 'reset'
            : (err.code ?? 'error'),
      ),
    );
    req.on('finish', () => options.onSent?.());
    if (!options.chunkBytes) return void req.end(payload);
    let offset = 0;
    pacer = setInterval(() => {
      const next = Math.min(payload.length, offset + options.chunkBytes!);
      req.write(payload.subarray(offset, next));
      offset = next;
      if (offset >= payload.length) {
        clearInterval(pacer);
        req.end();
      }
    }, options.chunkMs ?? 250);
  });
}

// ---------------------------------------------------------------------------------------------
// Probes

export interface ProbeStats {
  count: number;
  worstMs: number;
  /** When the worst probe started, in microseconds of CLOCK_MONOTONIC: the clock of a CPU profile's timestamps. */
  worstAtUs: number;
  p99Ms: number;
  statuses: Record<string, number>;
}

const PROBE_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { hostname, port, intervalMs, timeoutMs } = workerData;
let stopping = false;
function once(agent, post) {
  const body = '{"query":"{ __typename }"}';
  return new Promise((resolve) => {
    const t0 = performance.now();
    const at = Number(process.hrtime.bigint() / 1000n);
    const done = (status) => { clearTimeout(timer); resolve({ ms: performance.now() - t0, status, at }); };
    const req = http.request({ hostname, port, agent, method: post ? 'POST' : 'GET', path: post ? '/graphql' : '/health',
      headers: post ? { 'content-type': 'application/json', 'content-length': body.length } : {} }, (res) => {
      res.resume();
      res.on('end', () => done(String(res.statusCode)));
      res.on('error', () => done('reset'));
    });
    const timer = setTimeout(() => req.destroy(Object.assign(new Error('timeout'), { code: 'timeout' })), timeoutMs);
    req.on('error', (e) => done(e.code === 'ECONNRESET' || e.message === 'socket hang up' ? 'reset' : e.code || 'error'));
    req.end(post ? body : undefined);
  });
}
async function loop(post, out) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  while (!stopping) {
    const r = await once(agent, post);
    out.ms.push(r.ms);
    if (r.ms > out.worst) { out.worst = r.ms; out.worstAt = r.at; }
    out.statuses[r.status] = (out.statuses[r.status] || 0) + 1;
    if (r.ms < intervalMs) await new Promise((res) => setTimeout(res, intervalMs - r.ms));
  }
  agent.destroy();
}
const results = { health: { ms: [], statuses: {}, worst: 0, worstAt: 0 }, typename: { ms: [], statuses: {}, worst: 0, worstAt: 0 } };
const done = Promise.all([loop(false, results.health), loop(true, results.typename)]);
parentPort.on('message', async () => { stopping = true; await done; parentPort.postMessage(results); });
`;

type Probed = { ms: number[]; statuses: Record<string, number>; worstAt: number };

function stats(probe: Probed): ProbeStats {
  const sorted = [...probe.ms].sort((a, b) => a - b);
  const p99 = sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] ?? 0;
  return {
    count: sorted.length,
    worstMs: Math.round(sorted.at(-1) ?? 0),
    worstAtUs: probe.worstAt,
    p99Ms: Math.round(p99),
    statuses: probe.statuses,
  };
}

/** Starts probing `url` every `intervalMs`; `stop()` ends it and returns the figures. */
export function startProbes(url: string, intervalMs: number, timeoutMs: number) {
  const { hostname, port } = new URL(url);
  const worker = new Worker(PROBE_WORKER, { eval: true, workerData: { hostname, port, intervalMs, timeoutMs } });
  return {
    async stop(): Promise<{ health: ProbeStats; typename: ProbeStats }> {
      const reply = new Promise<{ health: Probed; typename: Probed }>((resolve) => worker.once('message', resolve));
      worker.postMessage('stop');
      const results = await reply;
      await worker.terminate();
      return { health: stats(results.health), typename: stats(results.typename) };
    },
  };
}
