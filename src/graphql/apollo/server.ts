/**
 * The Apollo Server 5 instance and the order of its plugins, which is the order in which a
 * request is checked: the shape of the operation (depth, aliases, directives, tokens), the
 * mutation rate limit, the operation's cost with its variables and, for heavy operations, a place
 * at admission; then execution, the answer's Cache-Control from its cache policy, the status of
 * a request that could not be executed (200 for `application/json`, 400 for
 * `application/graphql-response+json`: `request-error-status.ts`), and a last word on whether
 * the response may be replayed. A batched HTTP request (a JSON array body) runs
 * its operations under one context, so they share one cost limit, engine budget and answer size.
 * Parsed and validated documents are kept in a document store (`document-store.ts`: Apollo's
 * default, weighed more cheaply), so a repeated query costs neither parse nor validation, and a
 * new document of a shape validated before is validated by the rules that read values alone
 * (`known-shapes.ts`). Subscriptions are refused as a bad request: there is
 * no Subscription type, and graphql-js would fail one as an internal error. Draining HTTP
 * connections at shutdown is the HTTP layer's business (`src/http/drain.ts`), not a plugin's.
 */
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { Metrics } from '../../observability/metrics.js';
import { httpCachePlugins } from '../caching/http-cache.js';
import { closeVerdict } from '../caching/replay.js';
import { HEAVY_WORK } from '../limits/cost.js';
import { armorConfig, tokenLimitPlugin, UnsupportedOperationError } from '../limits/operation-limits.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import { PACE_BYTES } from '../limits/response-budget.js';
import { type Context, endRequest } from '../request/context.js';
import { createFormatError, refusal } from '../request/errors.js';
import { operationPlacePlugin } from '../request/idempotency.js';
import { buildSchema } from '../schema/schema.js';
import type { Admission } from '../work/admission.js';
import { OverloadedError } from '../work/pool.js';
import { costPlugin } from './cost-plugin.js';
import { ValidatedDocuments } from './document-store.js';
import { KnownShapes, knownShapesPlugin } from './known-shapes.js';
import { playgroundPlugin } from './playground.js';
import { rateLimitPlugin } from './rate-limit-plugin.js';
import { requestErrorStatusPlugin } from './request-error-status.js';
import { markLarge, stringifyResult } from './stringify.js';

/** Path of the GraphQL endpoint. */
export const GRAPHQL_PATH = '/graphql';

/** Creates (but does not start) the Apollo server. */
export function createApollo(options: {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  admission: Admission;
  /** The mutation rate limiter (`createRateLimiter`); whoever made it closes it. */
  rateLimiter: RateLimiter;
}): ApolloServer<Context> {
  const { config, logger, metrics, admission, rateLimiter } = options;
  const { limits } = config;
  const armor = new ApolloArmor(armorConfig(limits, !config.introspection)).protect();
  const parseOptions = { maxTokens: limits.maxTokens };
  // Documents Apollo validated, and their shapes: a new document of a known shape is validated
  // by the rules that read values alone (`known-shapes.ts`).
  const shapes = new KnownShapes(config.shapeCacheBytes);
  const documents = new ValidatedDocuments(config.documentCacheBytes, (document) => shapes.validated(document));
  metrics.watchCache('documents', () => documents.size());
  metrics.watchCache('shapes', () => shapes.size());
  const plugins: ApolloServerPlugin<Context>[] = [
    // Cache-Control from each GET operation's cache policy (the schema's @cacheControl hints).
    ...httpCachePlugins<Context>(config.pathCacheControl),
    ...(armor.plugins as ApolloServerPlugin<Context>[]),
    tokenLimitPlugin<Context>(limits),
    knownShapesPlugin<Context>(documents, shapes, parseOptions),
    // Each operation's place in a batch, which the Idempotency-Key header's keys are made of.
    operationPlacePlugin(),
    rateLimitPlugin(rateLimiter),
    // The cost and the place at admission belong to the HTTP request: the operations of a batch
    // add up and share one place, given back once the answer is made (the gateway). Apollo runs
    // every plugin's didResolveOperation at once, so an operation the rate limit refuses may
    // still wait for a place; it gives it back as soon as its refusal is made.
    costPlugin<Context>(
      limits,
      async ({ contextValue }, { work }) => {
        const { request, budget } = contextValue;
        if (work <= HEAVY_WORK) return;
        request.admitted ??= admission.acquire().then((release) => {
          request.release = release;
        });
        try {
          await request.admitted;
        } catch (err) {
          if (!(err instanceof OverloadedError)) throw err;
          throw refusal(err, 503, err.retryAfterSeconds);
        }
        // The client left while the request waited: the place goes back at once.
        if (budget.cancelled) endRequest(contextValue);
      },
      (contextValue) => contextValue.request,
    ),
    // A document that does not parse or validate, or variables that do not coerce: 200 when the
    // answer is application/json, as the GraphQL-over-HTTP specification has it.
    requestErrorStatusPlugin<Context>(),
    {
      async requestDidStart() {
        return {
          async didResolveOperation({ operation }) {
            if (operation?.operation !== 'subscription') return;
            throw refusal(new UnsupportedOperationError(), 400);
          },
          async willSendResponse({ contextValue, operation, response }) {
            const body = response.body;
            if (body.kind === 'single' && body.singleResult.data && contextValue.output.bytes > PACE_BYTES) {
              markLarge(body.singleResult.data);
            }
            closeVerdict(
              contextValue.replay,
              operation?.operation,
              body.kind !== 'single' || Boolean(body.singleResult.errors?.length),
            );
          },
        };
      },
    },
    config.playground ? playgroundPlugin({ endpoint: GRAPHQL_PATH }) : ApolloServerPluginLandingPageDisabled(),
  ];
  return new ApolloServer<Context>({
    schema: buildSchema(),
    plugins,
    validationRules: armor.validationRules,
    documentStore: documents.store,
    formatError: createFormatError({ production: config.production, logger, metrics }),
    introspection: config.introspection,
    parseOptions,
    // Compact JSON (Apollo's default pretty-prints), written in slices when the answer is large.
    stringifyResult,
    // GET is for queries only (Apollo refuses mutations over GET), the API sets no cookies and
    // reads no ambient credentials, so a cross-site GET can do nothing a direct one cannot; POST
    // still needs a JSON or GraphQL content type, which a cross-site form cannot send without a
    // CORS preflight (checked in the HTTP layer).
    csrfPrevention: false,
    // JSON array bodies; their operations share the request's limits (see the cost plugin above).
    allowBatchedHttpRequests: true,
    includeStacktraceInErrorResponses: !config.production,
    stopOnTerminationSignals: false,
    nodeEnv: config.production ? 'production' : 'development',
    logger: {
      debug: (message) => logger.debug(message),
      info: (message) => logger.info(message),
      warn: (message) => logger.warn(message),
      error: (message) => logger.error(message),
    },
  });
}
