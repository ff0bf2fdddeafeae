/**
 * A TCP proxy to the machine's PostgreSQL that a test can cut and restore on the same port: the
 * database going away and coming back, as seen by the service, without touching the server that
 * other tests use. Cutting destroys every connection and stops accepting new ones.
 */
import { once } from 'node:events';
import { createServer, connect as netConnect, type Server, type Socket } from 'node:net';
import { TEST_POSTGRES_URL } from './postgres.js';

/** A TCP proxy to the PostgreSQL server that can be cut and restored on the same port. */
export class TcpProxy {
  readonly #target = new URL(TEST_POSTGRES_URL);
  /** Both ends of every connection, to destroy them. */
  readonly #sockets = new Set<Socket>();
  /** The store's ends, to count them. */
  readonly #clients = new Set<Socket>();
  #server: Server | undefined;
  port = 0;
  /** Most client connections open at once (tests reset it). */
  peak = 0;

  /** Listens (again) on its port, or on a free one the first time. */
  async open(): Promise<void> {
    const server = createServer((client) => {
      this.#clients.add(client);
      client.on('close', () => this.#clients.delete(client));
      const upstream = netConnect(Number(this.#target.port || 5432), this.#target.hostname);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => {
          this.#sockets.delete(socket);
          // One side gone: the other goes too, as when a real connection breaks.
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
      this.peak = Math.max(this.peak, this.clients());
    });
    server.listen(this.port, '127.0.0.1');
    await once(server, 'listening');
    this.port = (server.address() as { port: number }).port;
    this.#server = server;
  }

  /** Client connections open now. */
  clients(): number {
    return this.#clients.size;
  }

  /** Stops accepting and destroys every connection, as a server that went away. */
  async cut(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    // close() stops accepting at once; its callback waits for the connections destroyed below.
    const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : undefined;
    for (const socket of this.#sockets) socket.destroy();
    await closed;
  }

  /** `url` (a database on the real server) through this proxy. */
  url(url: string): string {
    const through = new URL(url);
    through.hostname = '127.0.0.1';
    through.port = String(this.port);
    return through.toString();
  }
}
