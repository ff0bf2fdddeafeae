/**
 * The "doors" of `npm run bench:attack`: pictures asked for through `GET /diagram.svg`,
 * `GET /diagram.png` and `position { paths { overlay { svg } } }`. They were moved onto the same bounded road as GraphQL
 * path questions (cost, admission, engine budget, worker pool, answer size checked before
 * drawing, SVG streamed with backpressure, a client that takes nothing for SEND_STALL_MS
 * dropped); these attacks check that road from outside, with the same fresh server, probes and
 * goals as attack.ts, and add what only pictures can do wrong: a 200 cut mid-body (received bytes
 * against Content-Length) and clients that never read their answer.
 *
 * - diagrams-64: 60 GETs at once, 64 x 64, a FEN of 62 ranks of queens (31 black, 31 white; the
 *   black king on a64 moves avoiding attacked squares), `path=true`; default limits.
 * - diagrams-256: 20 at once on 256 x 256 (MAX_BOARD_SIDE=256): 48 ranks of queens (as many as
 *   keep the URL under Node's 16 KiB header limit and the picture's bound under MAX_RESPONSE_BYTES:
 *   an 11 MB SVG), the white king on iv1 crossing 206 empty ranks.
 * - diagrams-never-read: 40 raw TCP clients send that 256 x 256 GET and never read. SEND_STALL_MS
 *   is 5000 here (default 30,000) so the drop shows within the attack. Measured: peak RSS while
 *   they hang, when the server let go of each connection (its socket closed, read from /proc),
 *   RSS then; afterwards each client reads what is left, to count whole and cut answers.
 *   A 256 x 256 diagram is heavy, so admission draws about one at a time and refuses the rest;
 * - diagrams-never-read-64: the same with the 64 x 64 diagram, light, so all 40 are drawn and
 *   held at once: the stall drop at scale.
 * - position-pictures-64 / -256: 5 requests at once, each with 6 aliased
 *   `position(fen) { paths(..., avoidAttacked: true) { overlay { svg(path: true) } } }` on the
 *   FENs above (6 targets, so 6 distinct questions).
 * - sigterm-diagrams: SIGTERM 250 ms after 20 256 x 256 GETs were sent: the time to exit against
 *   SHUTDOWN_TIMEOUT_MS, and whether any answer was cut mid-body.
 * - pngs-seed: 60 GETs at once of the seed's PNG, each of another width (1141 to 1200 pixels), so
 *   each is rasterised: light questions, so nothing waits at admission and every PNG goes to the
 *   worker pool's queue, which the event loop must not feel.
 * - pngs-64-widest: 10 GETs at once of the 64 x 64 queens diagram as a PNG 4064 pixels wide (4064
 *   x 4105, nearly PNG_MAX_PIXELS; 4096 would be over it): the largest rasterising, a 2.5 MB SVG,
 *   on each request's engine budget (ENGINE_BUDGET_MS).
 */
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import type * as Q from './attack-queries.js';
import { body, send } from './attack-queries.js';
import { type Phase, phaseOf } from './attack-report.js';
import { type Attack, type Ctx, memoryKb, releasedClientPorts, sleep, stopServer } from './attack-server.js';

/** `side` x `side`: a black king on the top rank's corner, `queenRanks` of black then of white queens, empty ranks, a white king on the far corner of the first rank. */
function queensFen(side: number, queenRanks: number): string {
  const empty = side - 2 - 2 * queenRanks;
  return [
    `k${side - 1}`,
    ...Array.from({ length: queenRanks }, () => 'q'.repeat(side)),
    ...Array.from({ length: queenRanks }, () => 'Q'.repeat(side)),
    ...Array.from({ length: empty }, () => String(side)),
    `${side - 1}K`,
  ].join('/');
}

const FEN_64 = queensFen(64, 31); // 62 ranks of queens
const FEN_256 = queensFen(256, 24); // 48 ranks of queens, 206 empty ranks (2 to 207)
const BIG = { MAX_BOARD_SIDE: '256' };

/** `/diagram.svg?...` of a position's king avoiding the attacked squares, with its path drawn. */
const diagramPath = (fen: string, side: number, from: string, to: string[]) =>
  `/diagram.svg?${new URLSearchParams({ fen, board: `${side}x${side}`, from, to: to.join(','), avoidAttacked: 'true', path: 'true' })}`;
// Files: a..z, aa..az, ba..bl is file 64; i + v is file 256.
const DIAGRAM_64 = diagramPath(FEN_64, 64, 'a64', ['b64', 'bl1']);
const DIAGRAM_256 = diagramPath(FEN_256, 256, 'iv1', ['a206', 'iv206']);
/** The seed's PNG, `width` pixels wide. */
const seedPng = (width: number) => `/diagram.png?piece=KING&from=e4&to=a1,h8&path=true&width=${width}`;
const PNG_64_WIDEST = `${DIAGRAM_64.replace('/diagram.svg', '/diagram.png')}&width=4064`;

/** 6 aliased position pictures, one request. */
const positionPictures = (fen: string, side: number, from: string, to: string[]) =>
  body(
    `query($fen: String!, $board: BoardInput) { ${to
      .map(
        (t, i) =>
          `p${i}: position(fen: $fen, board: $board) { paths(from: "${from}", to: ["${t}"], avoidAttacked: true) { distance overlay { svg(path: true) } } }`,
      )
      .join(' ')} }`,
    { fen, board: { files: side, ranks: side } },
  );
const PICTURES_64 = positionPictures(FEN_64, 64, 'a64', ['b64', 'c64', 'd64', 'e64', 'f64', 'g64']);
const PICTURES_256 = positionPictures(FEN_256, 256, 'iv1', ['a200', 'b200', 'c200', 'd200', 'e200', 'f200']);

/** A refusal as a code: its JSON error's code, or the variable its text names (`(MAX_RESPONSE_BYTES)`), else its first words. */
const refusalCode = (text: string) =>
  /"code":"([A-Z_]+)"/.exec(text)?.[1] ?? /\(([A-Z][A-Z0-9_]{2,})\b/.exec(text)?.[1] ?? text.slice(0, 40);

/** GETs `path` on a connection of its own and measures it; a 200 is cut when fewer bytes than its Content-Length came. Never rejects. */
export function getOnce(url: string, path: string, timeoutMs: number, onSent?: () => void): Promise<Q.Outcome> {
  const { hostname, port } = new URL(url);
  const started = performance.now();
  return new Promise((resolve) => {
    let timedOut = false;
    const finish = (outcome: Omit<Q.Outcome, 'ms' | 'cachedTrue'>) => {
      clearTimeout(timer);
      resolve({ ms: performance.now() - started, cachedTrue: 0, ...outcome });
    };
    const req = request({ hostname, port, path, agent: false }, (res) => {
      const status = String(res.statusCode);
      const length = Number(res.headers['content-length'] ?? Number.NaN);
      const retryAfter = res.headers['retry-after'] !== undefined;
      let bytes = 0;
      let text = '';
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (status !== '200' && text.length < 2000) text += chunk.toString('utf8');
      });
      const done = (broken: boolean) => {
        const codes = status === '200' || !text ? {} : { [refusalCode(text)]: 1 };
        const cut = broken || !res.complete || (length >= 0 && bytes < length);
        finish({
          status: timedOut ? 'timeout' : status,
          bytes,
          codes,
          cut,
          retryAfter,
          firstError: text.slice(0, 200) || undefined,
        });
      };
      res.on('end', () => done(false));
      res.on('error', () => done(true));
    });
    const timer = setTimeout(() => {
      timedOut = true;
      req.destroy();
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) =>
      finish({
        status: timedOut
          ? 'timeout'
          : err.code === 'ECONNRESET' || err.message === 'socket hang up'
            ? 'reset'
            : (err.code ?? 'error'),
        bytes: 0,
        codes: {},
      }),
    );
    req.on('finish', () => onSent?.());
    req.end();
  });
}

/** `count` GETs of `path` at once, each on a connection of its own. */
const getAll = (ctx: Ctx, path: string, count: number, onSent?: () => void) =>
  Promise.all(Array.from({ length: count }, () => getOnce(ctx.server.url, path, ctx.timeoutMs, onSent)));

/** An HTTP/1.1 answer read from a raw socket: status, Content-Length, body bytes, Retry-After. */
function parseRaw(raw: Buffer): Pick<Q.Outcome, 'status' | 'bytes' | 'cut' | 'retryAfter' | 'codes' | 'firstError'> {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return { status: raw.length === 0 ? 'reset' : 'partial-head', bytes: raw.length, codes: {} };
  const head = raw.toString('latin1', 0, end);
  const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 'bad-head';
  const length = Number(/^content-length:\s*(\d+)/im.exec(head)?.[1] ?? Number.NaN);
  const bytes = raw.length - end - 4;
  const text = status === '200' ? '' : raw.toString('utf8', end + 4, end + 4 + 2000);
  return {
    status,
    bytes,
    cut: length >= 0 && bytes < length,
    retryAfter: /^retry-after:/im.test(head),
    codes: text ? { [refusalCode(text)]: 1 } : {},
    firstError: text.slice(0, 200) || undefined,
  };
}

/**
 * `count` raw TCP clients send `GET path` (Connection: close) and read nothing while the server
 * holds their connections (at most `capMs`), the server's RSS and the connections it holds sampled
 * every 50 ms. Then each reads what is left (5 s at most) to tell whole answers from dropped ones;
 * an outcome's time is how long the server held its connection.
 */
async function neverRead(ctx: Ctx, path: string, count: number, capMs: number): Promise<Phase> {
  const pid = ctx.server.child.pid!;
  const started = performance.now();
  const head = `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${ctx.server.port}\r\nConnection: close\r\n\r\n`;
  const sockets: Socket[] = [];
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve) => {
          const socket = connect({ host: '127.0.0.1', port: ctx.server.port }, () =>
            socket.write(head, () => resolve()),
          );
          socket.on('error', () => resolve()); // read below, as what came
          sockets.push(socket);
        }),
    ),
  );
  // No 'data' listener: the socket stays paused, the kernel's buffers fill, the server's writes stall.
  const ports = sockets.map((socket) => socket.localPort ?? 0);
  const releasedAt = new Map<number, number>();
  let peakKb = 0;
  let peakHeld = 0;
  while (performance.now() - started < capMs && releasedAt.size < ports.length) {
    await sleep(50);
    const released = releasedClientPorts(pid, ctx.server.port, ports);
    if (!released) break;
    const now = performance.now() - started;
    for (const port of released) if (!releasedAt.has(port)) releasedAt.set(port, now);
    peakKb = Math.max(peakKb, memoryKb(pid).rss);
    peakHeld = Math.max(peakHeld, ports.length - released.size);
  }
  const rssAtReleaseMb = Math.round(memoryKb(pid).rss / 1024);
  await sleep(2000);
  Object.assign(ctx.notes, {
    sendStallMs: Number(ctx.server.env.SEND_STALL_MS),
    connectionsHeldPeak: peakHeld,
    stillHeldAtCap: ports.length - releasedAt.size,
    lastReleasedAfterMs: Math.round(Math.max(0, ...releasedAt.values())),
    peakRssWhileHeldMb: Math.round(peakKb / 1024),
    rssAtReleaseMb,
    rssTwoSecondsLaterMb: Math.round(memoryKb(pid).rss / 1024),
  });
  // Each client now reads what is left: a whole answer (written before the stall) or a cut one.
  const outcomes = await Promise.all(
    sockets.map(
      (socket) =>
        new Promise<Q.Outcome>((resolve) => {
          const chunks: Buffer[] = [];
          // Its time is how long the server held its connection (from the first connection).
          const ms = releasedAt.get(socket.localPort ?? 0) ?? capMs;
          const done = () => {
            clearTimeout(timer);
            socket.destroy();
            resolve({ ms, cachedTrue: 0, ...parseRaw(Buffer.concat(chunks)) });
          };
          const timer = setTimeout(done, 5000);
          socket.on('data', (chunk: Buffer) => chunks.push(chunk));
          socket.once('close', done);
          socket.resume();
        }),
    ),
  );
  return phaseOf(outcomes, { cutExpected: true });
}

export const DOORS: Record<string, Attack> = {
  'diagrams-64': { run: async (ctx) => ({ main: phaseOf(await getAll(ctx, DIAGRAM_64, 60)) }) },
  'diagrams-256': { env: BIG, run: async (ctx) => ({ main: phaseOf(await getAll(ctx, DIAGRAM_256, 20)) }) },
  'diagrams-never-read': {
    env: { ...BIG, SEND_STALL_MS: '5000' },
    run: async (ctx) => ({ main: await neverRead(ctx, DIAGRAM_256, 40, 40_000) }),
  },
  'diagrams-never-read-64': {
    env: { SEND_STALL_MS: '5000' },
    run: async (ctx) => ({ main: await neverRead(ctx, DIAGRAM_64, 40, 40_000) }),
  },
  'position-pictures-64': {
    run: async (ctx) => ({
      main: phaseOf(
        await Promise.all(
          ctx.agents.slice(0, 5).map((a) => send(ctx.server.url, a, PICTURES_64, { timeoutMs: ctx.timeoutMs })),
        ),
      ),
    }),
  },
  'position-pictures-256': {
    env: BIG,
    run: async (ctx) => ({
      main: phaseOf(
        await Promise.all(
          ctx.agents.slice(0, 5).map((a) => send(ctx.server.url, a, PICTURES_256, { timeoutMs: ctx.timeoutMs })),
        ),
      ),
    }),
  },
  'pngs-seed': {
    run: async (ctx) => ({
      main: phaseOf(
        await Promise.all(
          Array.from({ length: 60 }, (_, i) => getOnce(ctx.server.url, seedPng(1200 - i), ctx.timeoutMs)),
        ),
      ),
    }),
  },
  'pngs-64-widest': { run: async (ctx) => ({ main: phaseOf(await getAll(ctx, PNG_64_WIDEST, 10)) }) },
  'sigterm-diagrams': {
    env: BIG,
    run: async (ctx) => {
      let sent = 0;
      let allSent: () => void;
      const accepted = new Promise<void>((r) => (allSent = r));
      const answers = getAll(ctx, DIAGRAM_256, 20, () => ++sent === 20 && allSent());
      await accepted;
      await sleep(250);
      ctx.exit = await stopServer(ctx.server);
      return { main: phaseOf(await answers) };
    },
  },
};
