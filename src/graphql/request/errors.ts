/**
 * Apollo's `formatError`, the one place where thrown errors become the errors a client reads.
 * Errors carry their own code: the service's errors are `ServiceError`s (`src/errors.ts`) with
 * their code and extensions, Apollo's and the scalars' are GraphQL errors with theirs. Only the
 * engine's `InputError`, which knows nothing of GraphQL, is given its code here
 * (`BAD_USER_INPUT`, with the argument path). Two kinds of error arrive without a useful code
 * and are recognised by their structure, never by their wording: a literal argument value that
 * does not fit its type fails validation at that value (bad user input, like the same value in a
 * variable), and Apollo's own refusals of a malformed request carry a 4xx status but no code
 * (`BAD_REQUEST`). Anything else without a code is `INTERNAL_SERVER_ERROR`: logged with its
 * stack, and in production sent with neither its message nor a stack trace. Every error sent is
 * counted by code.
 */

import { HeaderMap } from '@apollo/server';
import { formatInputPath, InputError } from '@chess-paths/engine';
import {
  type ASTNode,
  type GraphQLError,
  GraphQLError as GraphQLErrorClass,
  type GraphQLErrorExtensions,
  type GraphQLFormattedError,
  Kind,
} from 'graphql';
import type { Logger } from 'pino';
import { ErrorCode, findCause, isServiceError, ServiceError } from '../../errors.js';
import type { Metrics } from '../../observability/metrics.js';
import { tokenBreachOf } from '../limits/operation-limits.js';

/** The store is not open (still starting, or failed): analyses cannot be served. */
export class UnavailableError extends ServiceError {
  override readonly name = 'UnavailableError';
  readonly code = ErrorCode.ServiceUnavailable;
}

const isInputError = (e: unknown): e is InputError => e instanceof InputError;

/**
 * True for an error that is the request's own doing (bad input, a limit, a budget, overload),
 * however wrapped. graphql-js leaves the promises of a list's earlier items unobserved when a
 * later item fails at once with a non-null error; they settle after the response, cancelled with
 * their request, as unhandled rejections of this kind.
 */
export function isRequestError(error: unknown): boolean {
  return findCause(error, (e): e is Error => isServiceError(e) || isInputError(e)) !== undefined;
}

/**
 * A service error as an error that refuses the whole request before execution, with its HTTP
 * status (and a `Retry-After` header when it says when to come back).
 */
export function refusal(error: ServiceError, status: number, retryAfterSeconds?: number): GraphQLError {
  const http =
    retryAfterSeconds === undefined
      ? { status }
      : { status, headers: new HeaderMap([['retry-after', String(retryAfterSeconds)]]) };
  // Apollo reads `http.headers` as a HeaderMap; graphql-yoga's typings (a dependency of the
  // playground) declare it a plain record, hence the cast.
  const extensions = { code: error.code, ...error.extensions(), http };
  return new GraphQLErrorClass(error.message, {
    originalError: error,
    extensions: extensions as unknown as GraphQLErrorExtensions,
  });
}

/** Kinds of AST node that are literal values in a document. */
const VALUE_KINDS = new Set<string>([
  Kind.INT,
  Kind.FLOAT,
  Kind.STRING,
  Kind.BOOLEAN,
  Kind.NULL,
  Kind.ENUM,
  Kind.LIST,
  Kind.OBJECT,
  Kind.OBJECT_FIELD,
]);

/**
 * A validation failure located only at literal values: graphql-js's check that every literal fits
 * its input type (a wrong type, an unknown enum value or input field, a missing input field, a
 * scalar's own refusal). Other validation rules report fields, arguments, operations or names.
 */
function isBadLiteral(error: unknown, formatted: GraphQLFormattedError): boolean {
  if (formatted.extensions?.code !== ErrorCode.ValidationFailed) return false;
  const nodes = (error as { nodes?: readonly ASTNode[] }).nodes;
  return nodes !== undefined && nodes.length > 0 && nodes.every((node) => VALUE_KINDS.has(node.kind));
}

/**
 * A validation failure that is a custom scalar's refusal of a literal: graphql-js reports the
 * scalar's own error as it was thrown (BAD_USER_INPUT, without the literal's location), and Apollo
 * files it under validation; it is the same bad input as the value in a variable.
 */
function isScalarRefusal(error: unknown, formatted: GraphQLFormattedError): boolean {
  if (formatted.extensions?.code !== ErrorCode.ValidationFailed) return false;
  const cause = (error as { originalError?: { extensions?: { code?: unknown } } }).originalError;
  return cause?.extensions?.code === ErrorCode.BadUserInput;
}

/**
 * An error Apollo raised itself for a bad request, with a 4xx status but no code. Checked by shape,
 * not `instanceof`: under some module loaders (vitest) Apollo and this file see two copies of graphql.
 */
function isCodelessRequestError(error: unknown): boolean {
  const e = error as Partial<GraphQLError> | null;
  if (
    !e ||
    typeof e !== 'object' ||
    e.originalError ||
    typeof e.extensions !== 'object' ||
    e.extensions.code !== undefined
  ) {
    return false;
  }
  const status = (e.extensions.http as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/** The error as the client reads it, before production hiding. */
function format(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const keep = { locations: formatted.locations, path: formatted.path };
  const service = findCause(error, isServiceError) ?? tokenBreachOf(error);
  if (service) {
    return { message: service.message, ...keep, extensions: { code: service.code, ...service.extensions() } };
  }
  const input = findCause(error, isInputError);
  if (input) {
    return {
      message: input.message,
      ...keep,
      extensions: { code: ErrorCode.BadUserInput, argument: formatInputPath(input.argument) },
    };
  }
  if (isBadLiteral(error, formatted) || isScalarRefusal(error, formatted)) {
    return { ...formatted, extensions: { ...formatted.extensions, code: ErrorCode.BadUserInput } };
  }
  if (isCodelessRequestError(error)) {
    return { message: formatted.message, ...keep, extensions: { code: ErrorCode.BadRequest } };
  }
  return formatted;
}

/** Options of `createFormatError`. */
export interface FormatErrorOptions {
  production: boolean;
  logger: Logger;
  metrics: Metrics;
}

/** Apollo's `formatError`: gives every error its code, hides internals in production, counts. */
export function createFormatError(options: FormatErrorOptions) {
  const { production, logger, metrics } = options;
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    let out = format(formatted, error);
    const code = String(out.extensions?.code ?? ErrorCode.InternalServerError);
    if (code === ErrorCode.InternalServerError) {
      logger.error({ err: error, path: formatted.path }, 'internal error while answering a GraphQL request');
      if (production)
        out = { message: 'Internal server error', locations: out.locations, path: out.path, extensions: { code } };
    }
    metrics.graphqlErrors.inc({ code });
    return out;
  };
}
