/**
 * Every `extensions.code` the service sends, in one enum, and the base class of the service's own
 * errors. As with Apollo Server's errors, each error class carries its code and the extensions a
 * client can act on (the variable of a limit and its maximum, when to retry), so the GraphQL
 * error formatter never has to guess a code from a class list or from another library's message
 * text. The engine stays pure and has no codes: its `InputError` is bad user input by definition.
 */

/** The codes of `extensions.code` the service sets or relies on (Apollo may add a few of its own, such as OPERATION_RESOLUTION_FAILURE). */
export enum ErrorCode {
  /** An argument or variable the service cannot accept (a bad square, a board over the limit). */
  BadUserInput = 'BAD_USER_INPUT',
  /** A malformed request (not JSON, an unsupported operation, a bad persisted-query extension). */
  BadRequest = 'BAD_REQUEST',
  /** The document does not parse, or has more tokens than MAX_TOKENS (Apollo's code). */
  ParseFailed = 'GRAPHQL_PARSE_FAILED',
  /** The document does not validate, or is too deep, too aliased or too directed (Apollo's code). */
  ValidationFailed = 'GRAPHQL_VALIDATION_FAILED',
  /** A wrong or missing edit token. */
  Forbidden = 'FORBIDDEN',
  /** No such analysis, or no such route. */
  NotFound = 'NOT_FOUND',
  /** An update of an analysis that changed since the version it expected. */
  Conflict = 'CONFLICT',
  /** A save whose idempotency key was used, within its window, by a save of other input. */
  IdempotencyKeyReused = 'IDEMPOTENCY_KEY_REUSED',
  /** The request used its engine time (ENGINE_BUDGET_MS). */
  EngineBudgetExceeded = 'ENGINE_BUDGET_EXCEEDED',
  /** The answer would be over MAX_RESPONSE_BYTES. */
  ResponseTooLarge = 'RESPONSE_TOO_LARGE',
  /** The request body is over MAX_BODY_BYTES. */
  PayloadTooLarge = 'PAYLOAD_TOO_LARGE',
  /** Too many mutations from this client in the window. */
  RateLimited = 'RATE_LIMITED',
  /** Heavy work is queued to its limit: retry after `extensions.retryAfter` seconds. */
  Overloaded = 'OVERLOADED',
  /** Work cancelled because its request is over (its client went away); no client reads it. */
  RequestCancelled = 'REQUEST_CANCELLED',
  /** A save or update would go over an analysis byte budget, or past the last version (2^31 - 1); nothing was written. */
  StorageLimitExceeded = 'STORAGE_LIMIT_EXCEEDED',
  /** The database is not available: analyses cannot be served, path questions still are. */
  ServiceUnavailable = 'SERVICE_UNAVAILABLE',
  /** A fault of the service; logged with its stack, never detailed in production. */
  InternalServerError = 'INTERNAL_SERVER_ERROR',
}

/** An error of the service with its code and the extensions that explain it. */
export abstract class ServiceError extends Error {
  /** The `extensions.code` this error is sent with. */
  abstract readonly code: ErrorCode;

  /** Extensions besides the code (for example `limit` and `max`); none by default. */
  extensions(): Record<string, unknown> {
    return {};
  }
}

/** True for the service's own errors. */
export function isServiceError(error: unknown): error is ServiceError {
  return error instanceof ServiceError;
}

/**
 * Follows the `originalError` and `cause` links that graphql-js, Apollo and the store put around
 * an error, and returns the first error that `match` accepts.
 */
export function findCause<T>(error: unknown, match: (e: unknown) => e is T): T | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current; depth++) {
    if (match(current)) return current;
    const links = current as { originalError?: unknown; cause?: unknown };
    current = links.originalError ?? links.cause;
  }
  return undefined;
}
