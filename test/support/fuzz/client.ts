/**
 * The fuzz test's side of the wire (test/hardening/fuzz.test.ts): sends a generated case over
 * real HTTP to the server in a child process, parses the reply, and judges it: a 4xx, or a
 * GraphQL answer whose every error carries an `extensions.code` other than INTERNAL_SERVER_ERROR,
 * or a success when the case says it may succeed; never a 5xx and never a timeout. It keeps a
 * tally of what was sent and what came back, printed as a summary at the end, and runs a family
 * (`fuzz(arb, numRuns)`) through fast-check, stopping at the first bad answer.
 */
import { request } from 'node:http';
import fc from 'fast-check';
import type { ChildServer } from '../child-server.js';
import { type Case, JSON_HEADERS } from './values.js';

/** A request not answered within this is a hang. */
export const REQUEST_TIMEOUT_MS = 15_000;
/** Upper bound of one family's run, whatever the run count. */
export const FAMILY_TIME_LIMIT_MS = 25_000;

/** What came back for one case: the answer, parsed when it is JSON, or why there was none. */
export interface Reply {
  status: number;
  contentType: string;
  text: string;
  json?: { data?: unknown; errors?: { message?: string; extensions?: { code?: unknown } }[] };
  ms: number;
  failure?: string;
}

function describeCase(c: Case): string {
  const body = c.body === undefined ? '' : typeof c.body === 'string' ? c.body : `<${c.body.length} bytes>`;
  const shown = body.length > 600 ? `${body.slice(0, 600)}... (${body.length} characters)` : body;
  return `${c.method ?? 'POST'} ${c.path ?? '/graphql'} ${JSON.stringify(c.headers ?? JSON_HEADERS)} ${shown}`;
}

/** fast-check prints counterexamples with this, so a 5 MB body is not dumped into the report. */
export function caseOf(c: Case): Case {
  return Object.assign(c, { [fc.toStringMethod]: () => describeCase(c) });
}

function parseReply(status: number, contentType: string, text: string, started: number): Reply {
  let json: Reply['json'];
  if (contentType.includes('json')) {
    try {
      json = JSON.parse(text) as Reply['json'];
    } catch {
      json = undefined;
    }
  }
  return { status, contentType, text, json, ms: performance.now() - started };
}

/**
 * A body past the server's limit, sent with node:http: the server answers 413 as soon as it sees
 * the content-length and closes the connection, so the upload fails with EPIPE or ECONNRESET
 * after the answer has arrived (fetch reports only the write error). The answer is what counts.
 */
function sendOversize(url: string, c: Case, body: Buffer): Promise<Reply> {
  const started = performance.now();
  return new Promise((resolveReply) => {
    let settled = false;
    let failure: string | undefined;
    let answered = false;
    const settle = (reply: Reply) => {
      if (!settled) {
        settled = true;
        resolveReply(reply);
      }
    };
    const noAnswer = (why: string) =>
      settle({ status: 0, contentType: '', text: '', ms: performance.now() - started, failure: why });
    const req = request(
      `${url}${c.path ?? '/graphql'}`,
      {
        method: c.method ?? 'POST',
        headers: { ...(c.headers ?? JSON_HEADERS), 'content-length': String(body.length) },
        timeout: REQUEST_TIMEOUT_MS,
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          settle(
            parseReply(
              res.statusCode ?? 0,
              String(res.headers['content-type'] ?? ''),
              Buffer.concat(chunks).toString('utf8'),
              started,
            ),
          ),
        );
        res.on('error', (err) => noAnswer(err.message));
        // After 'end' when the answer is whole; otherwise it was cut off.
        res.on('close', () => noAnswer(failure ?? 'answer cut off'));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    // A write error decides nothing by itself: the answer may have arrived before it (its events
    // settle the reply), and the connection's close says whether one can still come.
    req.on('error', (err) => {
      failure = err.message;
    });
    req.on('close', () => {
      if (!answered) noAnswer(failure ?? 'closed without an answer');
    });
    req.end(body);
  });
}

/** The codes of every error in a reply (of every answer of a batch); `<no code>` for an error without one. */
export function codesOf(reply: Reply): string[] {
  // A batch is answered with an array, one answer per operation.
  const answers = (Array.isArray(reply.json) ? reply.json : [reply.json]) as Reply['json'][];
  const errors = answers.flatMap((a) => (Array.isArray(a?.errors) ? a!.errors : []));
  return errors.map((e) => (typeof e?.extensions?.code === 'string' ? e.extensions.code : '<no code>'));
}

/** How a fuzz client sends, and what its summary reports. */
export interface FuzzClientOptions {
  /** The server's MAX_BODY_BYTES: a larger body is sent with node:http (see `sendOversize`). */
  bodyLimit: number;
  /** fast-check's seed; undefined for a random one. */
  seed: number | undefined;
  /** The run-count multiplier (FUZZ_SCALE), for the summary. */
  scale: number;
}

/** Sends cases to one server, judges the answers and keeps their tally. */
export interface FuzzClient {
  /** Sends one case; never rejects (a request that got no answer says why in `failure`). */
  send(c: Case): Promise<Reply>;
  /** Why the answer is wrong, or undefined when it is acceptable. */
  judge(c: Case, reply: Reply): string | undefined;
  /** Counts a case and its reply in the tally. */
  record(c: Case, reply: Reply): void;
  /** Sends `numRuns` cases of `arb`, each judged; fails on the first bad answer (no shrinking). */
  fuzz(arb: fc.Arbitrary<Case>, numRuns: number): Promise<void>;
  /** How many cases have been recorded so far. */
  requestCount(): number;
  /** Prints requests per family, outcomes by status and code, the slowest answer and the server's peak RSS. */
  printSummary(): void;
}

/** A fuzz client of `server`, with an empty tally. */
export function createFuzzClient(server: ChildServer, options: FuzzClientOptions): FuzzClient {
  const { bodyLimit, seed, scale } = options;

  async function send(c: Case): Promise<Reply> {
    if (c.body !== undefined) {
      const body = typeof c.body === 'string' ? Buffer.from(c.body, 'utf8') : Buffer.from(c.body);
      if (body.length > bodyLimit) return sendOversize(server.url, c, body);
    }
    const started = performance.now();
    try {
      const res = await fetch(`${server.url}${c.path ?? '/graphql'}`, {
        method: c.method ?? 'POST',
        headers: c.headers ?? JSON_HEADERS,
        body: typeof c.body === 'string' || c.body === undefined ? c.body : Buffer.from(c.body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await res.text();
      return parseReply(res.status, res.headers.get('content-type') ?? '', text, started);
    } catch (err) {
      const cause = (err as { cause?: { message?: string } }).cause?.message;
      return {
        status: 0,
        contentType: '',
        text: '',
        ms: performance.now() - started,
        failure: `${(err as Error).message}${cause ? ` (${cause})` : ''}`,
      };
    }
  }

  function judge(c: Case, reply: Reply): string | undefined {
    if (reply.failure)
      return `no answer after ${reply.ms.toFixed(0)} ms: ${reply.failure}; server ${server.alive() ? 'alive' : 'DEAD'}`;
    if (reply.status >= 500) return `HTTP ${reply.status}: ${reply.text.slice(0, 400)}`;
    const codes = codesOf(reply);
    if (codes.includes('<no code>')) return `an error without extensions.code: ${reply.text.slice(0, 400)}`;
    if (codes.includes('INTERNAL_SERVER_ERROR')) return `INTERNAL_SERVER_ERROR: ${reply.text.slice(0, 400)}`;
    if (reply.status >= 400) return undefined;
    if (codes.length > 0) return undefined;
    if (c.maySucceed) return undefined;
    return `accepted (HTTP ${reply.status}) a request that should have been refused: ${reply.text.slice(0, 300)}`;
  }

  // Tally of what was sent and what came back, for the summary.
  const sent = new Map<string, number>();
  const outcomes = new Map<string, number>();
  let slowest = { ms: 0, what: '' };
  let total = 0;

  function record(c: Case, reply: Reply): void {
    total++;
    sent.set(c.family, (sent.get(c.family) ?? 0) + 1);
    const codes = [...new Set(codesOf(reply))].sort();
    const what = reply.failure
      ? 'no answer'
      : `${reply.status} ${codes.length > 0 ? codes.join('+') : reply.json?.data !== undefined ? 'data' : reply.contentType.split(';')[0] || 'empty'}`;
    outcomes.set(what, (outcomes.get(what) ?? 0) + 1);
    if (reply.ms > slowest.ms) slowest = { ms: reply.ms, what: `${c.family}: ${describeCase(c).slice(0, 160)}` };
  }

  function printSummary(): void {
    const lines = [
      `fuzz: ${total} requests, seed ${seed ?? 'random'}, scale ${scale}`,
      ...[...sent].sort((a, b) => b[1] - a[1]).map(([family, n]) => `  ${family.padEnd(24)} ${String(n).padStart(6)}`),
      'outcomes (HTTP status, error codes):',
      ...[...outcomes].sort((a, b) => b[1] - a[1]).map(([what, n]) => `  ${what.padEnd(48)} ${String(n).padStart(6)}`),
      `slowest answer: ${slowest.ms.toFixed(0)} ms (${slowest.what})`,
      `server peak RSS: ${(server.peakRssKb() / 1024).toFixed(0)} MB`,
    ];
    console.log(lines.join('\n'));
  }

  async function fuzz(arb: fc.Arbitrary<Case>, numRuns: number): Promise<void> {
    await fc.assert(
      fc.asyncProperty(arb.map(caseOf), async (c) => {
        const reply = await send(c);
        record(c, reply);
        const why = judge(c, reply);
        if (why) throw new Error(`${c.family}: ${why}\n  request: ${describeCase(c)}`);
      }),
      {
        numRuns,
        seed,
        endOnFailure: true,
        interruptAfterTimeLimit: FAMILY_TIME_LIMIT_MS,
        markInterruptAsFailure: false,
      },
    );
  }

  return { send, judge, record, fuzz, requestCount: () => total, printSummary };
}
