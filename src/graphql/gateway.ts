/**
 * The GraphQL layer's one door for the HTTP layer. A transport hands it a request in Apollo's
 * transport-neutral form and tells it two things about the response: when it was sent in full
 * and when it is over (sent, or its client gone). Everything per-request behind that door (the
 * context, its engine budget, the results to persist, the replay verdict, what makes its saves
 * idempotent) stays in this layer.
 */
import type { ApolloServer, GraphQLResponse, HTTPGraphQLRequest, HTTPGraphQLResponse } from '@apollo/server';
import { replayable } from './caching/replay.js';
import { type Context, createContext, endRequest, persistFresh, releasePlace } from './request/context.js';
import type { Services } from './request/services.js';
import { rasterWeight } from './work/dispatch.js';
import { pngHeight } from './work/raster.js';

/** One request's passage through the GraphQL layer. */
export interface GraphqlExchange {
  /** Executes the request (once). */
  execute(request: HTTPGraphQLRequest): Promise<HTTPGraphQLResponse>;
  /**
   * Executes one operation made by another door (a picture route), instead of `execute`: the
   * same plugins, limits, admission, budgets, loader and worker pool, with the answer as an
   * object rather than JSON text, since that door sends something else.
   */
  executeOperation(operation: { query: string; variables: Record<string, unknown> }): Promise<GraphQLResponse>;
  /**
   * After `executeOperation`: makes a picture's SVG (of `svgWidth` x `svgHeight` user units) into
   * a PNG `width` pixels wide, as engine work of the same request (its engine budget, on the worker
   * pool, behind its place at admission if it holds one). Throws what stopped it: the budget spent
   * (`EngineBudgetError`), the pool's queue full (`OverloadedError`), the request over.
   */
  rasterize(
    picture: { svg: string; svgWidth: number; svgHeight: number },
    width: number,
    maxPixels: number,
  ): Promise<Uint8Array>;
  /**
   * The answer is made in full and handed to the socket. Its place at admission goes to the next
   * heavy request once it is sent (until then the request still holds what it solved, for the
   * cache writer, and a next heavy request would pile its own on top), but at most
   * `SEND_GRACE_MS` later: a client that never reads must not keep the place.
   */
  answered(): void;
  /** The response was sent in full: the results solved for it go to the cache writer. */
  sent(): void;
  /** The response is over, sent or abandoned: the request's remaining work is cancelled. */
  closed(): void;
  /** Whether the response, once complete, may be replayed for the same request text. */
  replayable(): boolean;
}

/** Longest a made answer keeps its place at admission while its client reads it, ms. */
const SEND_GRACE_MS = 1000;

/** Runs HTTP GraphQL requests through Apollo with a per-request context. */
export class GraphqlGateway {
  constructor(
    readonly apollo: ApolloServer<Context>,
    readonly services: Services,
  ) {}

  /** Begins the exchange of one request from `clientAddress` (the TCP peer). */
  begin(clientAddress: string | undefined): GraphqlExchange {
    const { apollo, services } = this;
    let context: Context | undefined;
    let over = false;
    let grace: NodeJS.Timeout | undefined;
    return {
      execute: async (request) => {
        try {
          return await apollo.executeHTTPGraphQLRequest({
            httpGraphQLRequest: request,
            context: async () => {
              context = createContext(services, clientAddress);
              context.request.idempotencyKey = request.headers.get('idempotency-key');
              if (Array.isArray(request.body)) context.request.batch = request.body;
              if (over) endRequest(context);
              return context;
            },
          });
        } catch (error) {
          if (context) releasePlace(context);
          throw error;
        }
      },
      executeOperation: async (operation) => {
        const operationContext = createContext(services, clientAddress);
        // The door sends the values themselves (an SVG as it is), not JSON text.
        operationContext.output.json = false;
        context = operationContext;
        if (over) endRequest(operationContext);
        try {
          return await apollo.executeOperation(operation, { contextValue: operationContext });
        } catch (error) {
          releasePlace(operationContext);
          throw error;
        }
      },
      rasterize: async ({ svg, svgWidth, svgHeight }, width, maxPixels) => {
        if (!context) throw new Error('rasterize() comes after executeOperation()');
        const weight = rasterWeight(width * pngHeight(svgWidth, svgHeight, width), svg.length);
        const [png] = await context.work.run('raster', [{ svg, width, maxPixels }], [weight]);
        if (png instanceof Error) throw png;
        return png as Uint8Array;
      },
      answered: () => {
        const answeredContext = context;
        if (answeredContext) grace = setTimeout(() => releasePlace(answeredContext), SEND_GRACE_MS).unref();
      },
      sent: () => {
        clearTimeout(grace);
        if (!context) return;
        releasePlace(context);
        persistFresh(context);
      },
      closed: () => {
        clearTimeout(grace);
        over = true;
        if (context) endRequest(context);
      },
      replayable: () => replayable(context?.replay),
    };
  }
}
