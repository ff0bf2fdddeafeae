/**
 * One place that turns thrown errors into GraphQL errors (Apollo's `formatError`): resolvers just
 * throw the engine's `InputError`, the service's `LimitError` or `EngineBudgetError`, or the
 * store's `ForbiddenError` / `NotFoundError` / `DatabaseUnavailableError`, or the service's
 * `ResponseTooLargeError`, and this maps them to `extensions.code` with the original message, which
 * already names the argument and the value (or the limit). Apollo's own refusals of a malformed
 * request that come without a code (a bad persisted-query extension) are `BAD_REQUEST`. Anything unexpected is `INTERNAL_SERVER_ERROR`: it is
 * logged with its stack, and in production its message is replaced and no stack trace is sent.
 * Every error sent is counted by code in the metrics.
 */
import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLError, GraphQLFormattedError } from 'graphql';
import type { Logger } from 'pino';
import { formatInputPath, InputError } from '../engine/errors.js';
import type { Metrics } from '../observability/metrics.js';
import { DatabaseUnavailableError, ForbiddenError, NotFoundError, StorageLimitError } from '../store/types.js';
import { OverloadedError } from './work/pool.js';
import { EngineBudgetError } from './engine-budget.js';
import { LimitError } from './limits.js';
import { ResponseTooLargeError } from './response-budget.js';
import { ScalarInputError } from './scalars.js';

/** The store is not open (still starting, or failed): analyses cannot be served. */
export class UnavailableError extends Error {
  override readonly name = 'UnavailableError';
}

/** Follows `originalError` links (graphql-js and Apollo wrap errors) looking for a match. */
function findCause<T>(error: unknown, match: (e: unknown) => e is T): T | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (match(current)) return current;
    current = (current as { originalError?: unknown }).originalError;
  }
  return undefined;
}

const isScalarInput = (e: unknown): e is ScalarInputError => e instanceof ScalarInputError;

/** Errors that end a field of one request by design (its limits), never a fault of the service. */
const isRequestLimit = (e: unknown): e is Error =>
  e instanceof EngineBudgetError || e instanceof ResponseTooLargeError || e instanceof OverloadedError || e instanceof InputError;

/**
 * True for a request's own limit error, however wrapped. graphql-js leaves the promises of a
 * list's earlier items unobserved when a later item fails at once with a non-null error; they
 * settle after the response, cancelled with their request, as unhandled rejections of this kind.
 */
export function isRequestLimitError(error: unknown): boolean {
  return findCause(error, isRequestLimit) !== undefined;
}

/**
 * An error Apollo raised itself for a bad request, with a 4xx status but no code. Checked by shape,
 * not `instanceof`: under some module loaders (vitest) Apollo and this file see two copies of graphql.
 */
function isCodelessRequestError(error: unknown): boolean {
  const e = error as Partial<GraphQLError> | null;
  if (!e || typeof e !== 'object' || e.originalError || typeof e.extensions !== 'object' || e.extensions.code !== undefined) return false;
  const status = (e.extensions.http as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/** graphql-armor's messages (prefixed "Syntax Error: " by armor) and the variable behind each. */
const ARMOR_LIMITS: [RegExp, string][] = [
  [/^(?:Syntax Error: )?(Query Cost limit of (\d+) exceeded, found \d+(?:\.\d+)?)\.?$/, 'MAX_COST'],
  [/^(?:Syntax Error: )?(Aliases limit of (\d+) exceeded, found \d+)\.?$/, 'MAX_ALIASES'],
  [/^(?:Syntax Error: )?(Query depth limit of (\d+) exceeded, found \d+)\.?$/, 'MAX_DEPTH'],
  [/^(?:Syntax Error: )?(Directives limit of (\d+) exceeded, found \d+)\.?$/, 'MAX_DIRECTIVES'],
  [/^(?:Syntax Error: )?(Token limit of (\d+) exceeded)\.?$/, 'MAX_TOKENS'],
  [/^Syntax Error: (Document contains more th(?:an|at) (\d+) tokens)\. Parsing aborted\.$/, 'MAX_TOKENS'],
];

/**
 * graphql-js's messages for a bad literal value in the document (ValuesOfCorrectTypeRule): a
 * wrong type, an unknown enum value or input field, a missing input field. These are bad input
 * like their variable counterparts (which Apollo already reports as BAD_USER_INPUT).
 */
const BAD_LITERAL = new RegExp(
  '^(Expected value of type "|Field "[\\w.]+" of required type "[^"]+" was not provided|' +
    'Field "\\w+" is not defined by type "|Value "[^"]*" does not exist in "\\w+" enum|' +
    'Enum "\\w+" cannot represent|(Int|Float|String|Boolean|ID) cannot represent)',
);

/** Names the configuration variable in a graphql-armor limit error, or returns it unchanged. */
function explainArmorLimit(formatted: GraphQLFormattedError): GraphQLFormattedError {
  for (const [pattern, variable] of ARMOR_LIMITS) {
    const match = pattern.exec(formatted.message);
    if (match) {
      return {
        ...formatted,
        message: `${match[1].replace("more that ", "more than ")} (${variable})`,
        extensions: { ...formatted.extensions, limit: variable, max: Number(match[2]) },
      };
    }
  }
  return formatted;
}

/** Options of `createFormatError`. */
export interface FormatErrorOptions {
  production: boolean;
  logger: Logger;
  metrics: Metrics;
}

/** Apollo's `formatError`: maps known errors to codes, hides internals in production, counts. */
export function createFormatError(options: FormatErrorOptions) {
  const { production, logger, metrics } = options;
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const cause = unwrapResolverError(error);
    let out: GraphQLFormattedError = formatted;
    const keep = { locations: formatted.locations, path: formatted.path };
    if (cause instanceof InputError) {
      out = {
        message: cause.message,
        ...keep,
        extensions: { code: 'BAD_USER_INPUT', argument: formatInputPath(cause.path) },
      };
    } else if (cause instanceof LimitError) {
      out = {
        message: cause.message,
        ...keep,
        extensions: {
          code: 'BAD_USER_INPUT',
          argument: formatInputPath(cause.path),
          limit: cause.variable,
          max: cause.max,
        },
      };
    } else if (cause instanceof ForbiddenError) {
      out = { message: cause.message, ...keep, extensions: { code: 'FORBIDDEN' } };
    } else if (cause instanceof NotFoundError) {
      out = { message: cause.message, ...keep, extensions: { code: 'NOT_FOUND' } };
    } else if (cause instanceof EngineBudgetError) {
      out = {
        message: cause.message,
        ...keep,
        extensions: { code: 'ENGINE_BUDGET_EXCEEDED', limit: 'ENGINE_BUDGET_MS', max: cause.budgetMs },
      };
    } else if (cause instanceof ResponseTooLargeError) {
      out = {
        message: cause.message,
        ...keep,
        extensions: { code: 'RESPONSE_TOO_LARGE', limit: 'MAX_RESPONSE_BYTES', max: cause.maxBytes },
      };
    } else if (cause instanceof OverloadedError) {
      out = { message: cause.message, ...keep, extensions: { code: 'OVERLOADED', retryAfter: cause.retryAfterSeconds } };
    } else if (cause instanceof StorageLimitError) {
      out = { message: cause.message, ...keep, extensions: { code: 'STORAGE_LIMIT_EXCEEDED', limit: cause.variable, max: cause.max } };
    } else if (cause instanceof UnavailableError) {
      out = { message: cause.message, ...keep, extensions: { code: 'SERVICE_UNAVAILABLE' } };
    } else if (cause instanceof DatabaseUnavailableError) {
      out = { message: cause.message, ...keep, extensions: { code: 'SERVICE_UNAVAILABLE', reason: cause.reason } };
    } else if (isCodelessRequestError(error)) {
      out = { message: formatted.message, ...keep, extensions: { code: 'BAD_REQUEST' } };
    } else if (['RATE_LIMITED', 'BAD_REQUEST', 'OVERLOADED'].includes(String(formatted.extensions?.code)) || formatted.extensions?.limit === 'MAX_COST') {
      // A refusal of the request as sent (rate limit, subscription, malformed): no stack trace.
      const { stacktrace: _stack, ...extensions } = formatted.extensions ?? {};
      out = { message: formatted.message, ...keep, extensions };
    } else if (findCause(error, isScalarInput) || (formatted.extensions?.code === 'GRAPHQL_VALIDATION_FAILED' && BAD_LITERAL.test(formatted.message))) {
      // A bad scalar literal fails validation; it is still the user's input.
      out = { ...formatted, extensions: { ...formatted.extensions, code: 'BAD_USER_INPUT' } };
    } else {
      out = explainArmorLimit(formatted);
    }
    const code = String(out.extensions?.code ?? 'INTERNAL_SERVER_ERROR');
    if (code === 'INTERNAL_SERVER_ERROR') {
      logger.error({ err: cause, path: formatted.path }, 'internal error while answering a GraphQL request');
      if (production) {
        out = { message: 'Internal server error', ...keep, extensions: { code } };
      }
    }
    metrics.graphqlErrors.inc({ code });
    return out;
  };
}
