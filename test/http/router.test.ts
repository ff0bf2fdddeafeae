/**
 * The request listener (`src/http/router.ts`): a request with a long query string waits for an
 * event-loop turn of its own before its route reads it, so many such requests arriving together
 * are read one a turn; a short one is routed at once.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { GraphqlGateway } from '../../src/graphql/gateway.js';
import { createRequestHandler } from '../../src/http/router.js';
import { createMetrics } from '../../src/observability/metrics.js';

/** A listener whose gateway records when a request reached it (and then fails it: nothing more is needed). */
function listener() {
  const begun: string[] = [];
  const gateway = {
    begin: () => {
      throw new Error('reached the gateway');
    },
  } as unknown as GraphqlGateway;
  const handle = createRequestHandler({
    config: loadConfig({}),
    gateway: new Proxy(gateway, {
      get: (target, key) => {
        if (key === 'begin') begun.push('begin');
        return Reflect.get(target, key);
      },
    }),
    metrics: createMetrics(),
    logger: pino({ level: 'silent' }),
    health: async () => ({ status: 'ok', database: 'ok' }),
  });
  return { handle, begun };
}

/** A GET of `url` as node:http would hand it over, with a response that swallows what is sent. */
function get(url: string): [IncomingMessage, ServerResponse] {
  const headers: Record<string, string> = {};
  const res = {
    headersSent: false,
    writableFinished: false,
    statusCode: 200,
    setHeader: (name: string, value: string) => {
      headers[name] = value;
    },
    getHeader: (name: string) => headers[name],
    writeHead: () => res,
    end: () => undefined,
    once: () => res,
    on: () => res,
    destroy: () => undefined,
  };
  return [{ method: 'GET', url, headers: {} } as unknown as IncomingMessage, res as unknown as ServerResponse];
}

const microtasks = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('request listener', () => {
  it('routes a short diagram URL at once', async () => {
    const { handle, begun } = listener();
    handle(...get('/diagram.svg?piece=KING&from=e4&to=a1'));
    await microtasks();
    expect(begun).toEqual(['begin']);
  });

  it('reads a long one only after a turn of the event loop', async () => {
    const { handle, begun } = listener();
    const fen = `${'q'.repeat(8)}/`.repeat(200);
    handle(...get(`/diagram.svg?piece=KING&from=e4&to=a1&fen=${fen}`));
    await microtasks();
    expect(begun).toEqual([]);
    await turn();
    await turn();
    await microtasks();
    expect(begun).toEqual(['begin']);
  });
});
