/**
 * The HTTP drain (src/http/drain.ts) on a real `node:http` server: an answer in flight at the
 * stop is finished and sent with `Connection: close`; a request that arrives after the stop never
 * reaches the listener and is refused, once its body is read, with 503, OVERLOADED and
 * Retry-After; idle keep-alive connections close at the stop, a connection that never sent a
 * request after `lingerMs`; new connections are refused; `destroy()` cuts what is left. Every
 * wait is for a condition (a handler entered, a socket closed), never for a time.
 */
import { Agent, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpDrain } from '../../src/http/drain.js';
import { rawPost } from '../support/raw-post.js';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

/** A server whose listener records each request and answers when `answer` says so. */
async function start(answer: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('ok')) {
  const seen: string[] = [];
  const http = createServer();
  const drain = new HttpDrain(http);
  http.on(
    'request',
    drain.guard((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      answer(req, res);
    }),
  );
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  server = http;
  const port = (http.address() as AddressInfo).port;
  return { drain, seen, port, url: `http://127.0.0.1:${port}` };
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** A raw connection, its received text, and whether the server closed it cleanly (FIN) or reset it. */
function rawConnection(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  const state = { text: '', ended: false, error: undefined as string | undefined, closed: false };
  socket.on('data', (chunk: Buffer) => {
    state.text += chunk.toString('utf8');
  });
  socket.on('end', () => {
    state.ended = true;
  });
  socket.on('error', (err: NodeJS.ErrnoException) => {
    state.error = err.code;
  });
  socket.on('close', () => {
    state.closed = true;
  });
  return { socket, state };
}

describe('HttpDrain', () => {
  it('finishes an answer in flight, sends it with Connection: close, and resolves once it is closed', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { drain, seen, url } = await start((_req, res) => {
      void released.then(() => res.end('{"data":{}}'));
    });
    const answer = rawPost(url, { query: '{ __typename }' });
    await until(() => seen.length === 1);
    const stopped = drain.stop(60_000);
    release();
    const outcome = await answer;
    expect(outcome).toMatchObject({ kind: 'answer', status: 200, text: '{"data":{}}' });
    await stopped;
    expect(drain.connections).toBe(0);
  });

  it('refuses a request that arrives after the stop, after reading its body, without running it', async () => {
    const { drain, seen, port } = await start();
    const { socket, state } = rawConnection(port);
    await until(() => drain.connections === 1);
    const stopped = drain.stop(60_000);
    const body = JSON.stringify({ query: 'mutation { deleteAnalysis(id: "x", editToken: "y") }' });
    socket.write(
      `POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body.slice(0, 10));
    await new Promise((resolve) => setImmediate(resolve));
    socket.write(body.slice(10));
    await until(() => state.closed);
    expect(state.error).toBeUndefined(); // closed with FIN, not reset
    expect(state.ended).toBe(true);
    const [head, json] = state.text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 503 /);
    expect(head).toMatch(/\r\nretry-after: 1\r\n/i);
    expect(head).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(json).errors[0].extensions).toEqual({ code: 'OVERLOADED', retryAfter: 1 });
    expect(seen).toEqual([]);
    await stopped;
  });

  it('closes idle keep-alive connections at the stop, a silent new one after lingerMs, and refuses new ones', async () => {
    const { drain, url, port } = await start();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect(await rawPost(url, {}, { agent })).toMatchObject({ kind: 'answer', status: 200 });
      const [kept] = Object.values(agent.freeSockets).flat();
      let keptClosed = false;
      kept?.once('close', () => {
        keptClosed = true;
      });
      const silent = rawConnection(port);
      await until(() => drain.connections === 2);
      await drain.stop(20);
      // Both are closed on the server's side; the clients see it a moment later.
      await until(() => keptClosed && silent.state.closed);
      expect(silent.state.text).toBe('');
      expect(drain.connections).toBe(0);
      const refused = rawConnection(port);
      await until(() => refused.state.closed);
      expect(refused.state.error).toBe('ECONNREFUSED');
    } finally {
      agent.destroy();
    }
  });

  it('destroy() cuts an answer that is still being made', async () => {
    const { drain, seen, url } = await start(() => {});
    const answer = rawPost(url, {});
    await until(() => seen.length === 1);
    const stopped = drain.stop(60_000);
    drain.destroy();
    expect(await answer).toMatchObject({ kind: 'error', midBody: false });
    await stopped;
    expect(drain.connections).toBe(0);
  });
});
