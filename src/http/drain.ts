/**
 * Draining the HTTP server at shutdown, so that every request the server reads gets its whole
 * answer or a clean refusal, and every answer leaves before its connection closes.
 *
 * Neither Node's `server.close()` nor Apollo's drain plugin does that. Since Node 19, `close()`
 * destroys every connection that carries no request at that instant, so a request already on
 * the wire is reset unread. Apollo's plugin half-closes (FIN) every connection that has not
 * had a request yet; but `http.Server` allows half-open sockets and keeps reading, so a request
 * that was on its way is still parsed and run (a `saveAnalysis` commits) while its answer can no
 * longer be written: its client gets ECONNRESET after the commit. Then, at its grace period, the
 * plugin destroys whatever is still open, answers half-written included, long before the
 * shutdown's time is up.
 *
 * Here, from `stop()`: a request that arrives is not run but refused, after its body is read,
 * with 503, code OVERLOADED, `Retry-After` and `Connection: close`; answers in flight go out with
 * `Connection: close`, and their connection ends once they are flushed. What reached the machine
 * before the stop is read first (connections in the listen backlog accepted, a turn of the event
 * loop at a time, until a turn accepts none; requests in the kernel's buffers parsed, and
 * refused); then the listener closes, and idle keep-alive connections are closed as `close()`
 * would (a request their client sends at that very moment is reset unread, never run: the race
 * every keep-alive client must handle). A connection that never carried a request was opened to
 * send one: it gets `lingerMs` to do so and be refused cleanly. A request read from a connection
 * this drain closed is never run. `destroy()` cuts whatever is left when the shutdown's time is up.
 */
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ErrorCode } from '../errors.js';
import { drainBody } from './body.js';
import { sendError } from './replies.js';

/** Seconds a refused client is told to wait (another replica, or this one restarted, answers). */
const RETRY_AFTER_SECONDS = 1;

/** One connection: the answers in flight on it, and whether it ever carried a request. */
interface Connection {
  active: Set<ServerResponse>;
  used: boolean;
}

/** Tracks the server's connections and requests; see the file comment. */
export class HttpDrain {
  readonly #server: Server;
  readonly #connections = new Map<Socket, Connection>();
  /** Connections accepted so far. */
  #accepted = 0;
  #stopped: Promise<void> | undefined;
  #linger: NodeJS.Timeout | undefined;

  constructor(server: Server) {
    this.#server = server;
    server.on('connection', (socket: Socket) => {
      this.#accepted++;
      this.#connections.set(socket, { active: new Set(), used: false });
      socket.once('close', () => this.#connections.delete(socket));
    });
  }

  /** True once `stop()` was called. */
  get stopping(): boolean {
    return this.#stopped !== undefined;
  }

  /** Connections open now (a destroyed one may still await its `close` event). */
  get connections(): number {
    let open = 0;
    for (const socket of this.#connections.keys()) if (!socket.destroyed) open++;
    return open;
  }

  /** The request listener to install: `listener` while serving, a refusal once stopping. */
  guard(listener: RequestListener): RequestListener {
    return (req: IncomingMessage, res: ServerResponse) => {
      const socket = req.socket;
      const connection = this.#connections.get(socket);
      // A request read from a connection this drain closed: its answer could not be written.
      if (!connection || socket.writableEnded || socket.destroyed) {
        socket.destroy();
        return;
      }
      connection.used = true;
      connection.active.add(res);
      res.once('close', () => {
        connection.active.delete(res);
        if (this.stopping && connection.active.size === 0) socket.destroySoon();
      });
      if (this.stopping) {
        refuse(req, res);
        return;
      }
      listener(req, res);
    };
  }

  /**
   * Stops serving (see the file comment); resolves once every connection is closed. Idempotent.
   * `lingerMs`: how long a connection that never carried a request may still send one.
   */
  stop(lingerMs: number): Promise<void> {
    if (this.#stopped) return this.#stopped;
    for (const connection of this.#connections.values()) {
      for (const res of connection.active) if (!res.headersSent) res.setHeader('connection', 'close');
    }
    // What reached this machine before the stop is read first: connections waiting in the listen
    // backlog are accepted (libuv takes one or two a turn of the event loop) and requests waiting
    // in the kernel's buffers are parsed, and all of them are refused cleanly.
    this.#stopped = this.#acceptBacklog(lingerMs).then(() => {
      const closed = closeListener(this.#server);
      for (const [socket, connection] of this.#connections) {
        if (connection.active.size === 0 && connection.used) socket.destroy();
      }
      // Timers run before the poll for I/O: a process that was not scheduled for a while reads
      // what arrived meanwhile first, so a request sent in time is refused, not reset unread.
      this.#linger = setTimeout(() => {
        void nextPoll().then(() => {
          for (const [socket, connection] of this.#connections) if (connection.active.size === 0) socket.destroy();
        });
      }, lingerMs);
      this.#linger.unref();
      return closed;
    });
    return this.#stopped;
  }

  /** Turns of the event loop until one accepts no connection, for at most `ms`. */
  async #acceptBacklog(ms: number): Promise<void> {
    const end = performance.now() + ms;
    for (let seen = -1; seen !== this.#accepted && performance.now() < end; ) {
      seen = this.#accepted;
      await nextPoll();
    }
  }

  /** Cuts every connection still open (the shutdown's time is up); answers being written are lost. */
  destroy(): void {
    clearTimeout(this.#linger);
    for (const socket of this.#connections.keys()) socket.destroy();
  }
}

/** Resolves after the event loop has polled for I/O at least once more. */
function nextPoll(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/**
 * Closes the listening socket and resolves once no connection is left. `http.Server#close()`
 * also destroys the idle connections at once; that is this drain's business, so it is skipped.
 */
function closeListener(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const closeIdle = Object.getOwnPropertyDescriptor(server, 'closeIdleConnections');
    server.closeIdleConnections = () => {};
    try {
      // An error means the server was not listening: there is nothing to wait for either.
      server.close(() => resolve());
    } finally {
      if (closeIdle) Object.defineProperty(server, 'closeIdleConnections', closeIdle);
      else delete (server as { closeIdleConnections?: unknown }).closeIdleConnections;
    }
  });
}

/**
 * The refusal of a request that arrived after the stop: nothing of it runs. Its body is read
 * first, since closing a connection with unread data makes the kernel reset it, answer and all.
 */
function refuse(req: IncomingMessage, res: ServerResponse): void {
  void drainBody(req).then(() => {
    if (res.headersSent || res.destroyed) return;
    sendError(
      res,
      503,
      ErrorCode.Overloaded,
      'The service is shutting down: try again in a moment',
      { 'retry-after': String(RETRY_AFTER_SECONDS), 'cache-control': 'no-store', connection: 'close' },
      { retryAfter: RETRY_AFTER_SECONDS },
    );
  });
}
