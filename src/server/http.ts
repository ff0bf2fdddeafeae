/**
 * The server's HTTP side: a `node:http` server with its timeouts, the GraphQL layer's door (the
 * Apollo server started, the gateway over the services), the mutations' rate limiter (in memory,
 * or shared by the replicas in PostgreSQL), and the routes (src/http/router.ts) behind the drain
 * that refuses what arrives once shutdown began (src/http/drain.ts). `listen` returns once it
 * listens on HOST:PORT; when it cannot (src/http/listen-error.ts says why), what was started for
 * it ends, the worker threads included, before the failure is reported, since nothing was served.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { createApollo, GRAPHQL_PATH } from '../graphql/apollo/server.js';
import { GraphqlGateway } from '../graphql/gateway.js';
import { createRateLimiter, type RateLimiter } from '../graphql/limits/rate-limiter.js';
import type { Services } from '../graphql/request/services.js';
import type { Admission } from '../graphql/work/admission.js';
import { HttpDrain } from '../http/drain.js';
import { listenError } from '../http/listen-error.js';
import { createRequestHandler, type HealthReport } from '../http/router.js';
import type { Metrics } from '../observability/metrics.js';

/** A listening server, with what shutdown stops. */
export interface Listening {
  /** Base URL, e.g. `http://127.0.0.1:4000`. */
  url: string;
  port: number;
  drain: HttpDrain;
  apollo: ReturnType<typeof createApollo>;
  rateLimiter: RateLimiter;
}

/** Starts Apollo and the rate limiter and listens; see the file comment. */
export async function listen(options: {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  services: Services;
  admission: Admission;
  health(): Promise<HealthReport>;
}): Promise<Listening> {
  const { config, logger, metrics, services, admission, health } = options;
  const httpServer = createServer();
  httpServer.keepAliveTimeout = 65_000;
  httpServer.headersTimeout = 66_000;
  httpServer.requestTimeout = 60_000;
  // Mutation counts: in memory, or shared by the replicas in PostgreSQL (its own small pool).
  const rateLimiter = createRateLimiter({
    limit: config.rateLimitMutations,
    windowMs: config.rateLimitWindowMs,
    databaseUrl: config.databaseUrl,
    retryMs: config.databaseRetryMs,
    logger: logger.child({ component: 'rate-limit' }),
  });
  const apollo = createApollo({ config, logger, metrics, admission, rateLimiter });
  await apollo.start();
  const gateway = new GraphqlGateway(apollo, services);
  // Requests that arrive once shutdown began are refused by the drain, never run.
  const drain = new HttpDrain(httpServer);
  httpServer.on('request', drain.guard(createRequestHandler({ config, gateway, metrics, logger, health })));

  try {
    await new Promise<void>((resolve, reject) => {
      const failed = (err: NodeJS.ErrnoException) => reject(listenError(err, config));
      httpServer.once('error', failed);
      httpServer.listen(config.port, config.host, () => {
        httpServer.off('error', failed);
        resolve();
      });
    });
  } catch (err) {
    // Nothing was served: what was started for it ends before the failure is reported.
    await Promise.allSettled([apollo.stop(), rateLimiter.close(), services.pool?.close()]);
    throw err;
  }
  const { port } = httpServer.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  logger.info({ url, graphql: `${url}${GRAPHQL_PATH}`, playground: config.playground }, 'chess-paths listening');
  return { url, port, drain, apollo, rateLimiter };
}
