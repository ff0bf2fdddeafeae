/**
 * The errors of the store's contract (`./types.ts`): what a save, an update or a read of an
 * analysis can be refused for, each a `ServiceError` carrying its GraphQL code and naming the
 * argument at fault, so a resolver hands it on as it is; and `DatabaseUnavailableError`, what
 * every operation rejects with when the database cannot be used.
 */
import { ErrorCode, ServiceError } from '../errors.js';

/** A wrong or missing edit token for the analysis `id`; names the `editToken` argument. */
export class ForbiddenError extends ServiceError {
  override readonly name = 'ForbiddenError';
  readonly code = ErrorCode.Forbidden;
  constructor(id: string) {
    super(`editToken: wrong or missing edit token for analysis ${JSON.stringify(id)}`);
  }
  override extensions(): Record<string, unknown> {
    return { argument: 'editToken' };
  }
}

/** No analysis with the id `id` (never saved, or deleted); names the `id` argument. */
export class NotFoundError extends ServiceError {
  override readonly name = 'NotFoundError';
  readonly code = ErrorCode.NotFound;
  constructor(id: string) {
    super(`id: no analysis with id ${JSON.stringify(id)}`);
  }
  override extensions(): Record<string, unknown> {
    return { argument: 'id' };
  }
}

/**
 * The database answers, but not in time: every connection of the pool stayed busy, or a
 * transaction could not start. It says nothing about the database's health (the availability
 * breaker stays closed): the client tries again in a moment.
 */
export class DatabaseBusyError extends ServiceError {
  override readonly name = 'DatabaseBusyError';
  readonly code = ErrorCode.ServiceUnavailable;
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`The database is busy (${reason}); try again in a moment. Path questions are still answered.`, options);
  }

  override extensions(): Record<string, unknown> {
    return { reason: this.reason };
  }
}

/** An update said which version it changes, and the analysis is no longer at that version. */
export class ConflictError extends ServiceError {
  override readonly name = 'ConflictError';
  readonly code = ErrorCode.Conflict;
  constructor(
    /** The version the update expected. */
    readonly expectedVersion: number,
    /** The analysis's version now. */
    readonly currentVersion: number,
  ) {
    super(
      `The analysis is at version ${currentVersion}, not ${expectedVersion}: it was changed since you read it. ` +
        'Read it again, then update with expectedVersion set to its new version.',
    );
  }

  override extensions(): Record<string, unknown> {
    return { expectedVersion: this.expectedVersion, currentVersion: this.currentVersion };
  }
}

/** A save's idempotency key was used, within its window, by a save of other input; nothing was written. */
export class IdempotencyKeyReusedError extends ServiceError {
  override readonly name = 'IdempotencyKeyReusedError';
  readonly code = ErrorCode.IdempotencyKeyReused;
  constructor(
    /** The key as the client sent it. */
    readonly clientKey: string,
  ) {
    super(
      `The idempotency key ${JSON.stringify(clientKey)} was used by a save of other input: a retry must send the same input, ` +
        'and a new save needs a new key.',
    );
  }

  override extensions(): Record<string, unknown> {
    return { idempotencyKey: this.clientKey };
  }
}

/** A retried save whose first save's analysis was deleted since: nothing was written. */
export class IdempotentSaveGoneError extends ServiceError {
  override readonly name = 'IdempotentSaveGoneError';
  readonly code = ErrorCode.NotFound;
  constructor(
    /** The key as the client sent it. */
    readonly clientKey: string,
    /** The id of the deleted analysis. */
    readonly analysisId: string,
  ) {
    super(
      `The analysis saved with the idempotency key ${JSON.stringify(clientKey)} (id ${JSON.stringify(analysisId)}) was deleted since; ` +
        'to save it again, use a new key.',
    );
  }

  override extensions(): Record<string, unknown> {
    return { idempotencyKey: this.clientKey, analysisId: this.analysisId };
  }
}

/** A save or update would go over an analysis byte budget; nothing was written. */
export class StorageLimitError extends ServiceError {
  override readonly name = 'StorageLimitError';
  readonly code = ErrorCode.StorageLimitExceeded;
  constructor(
    message: string,
    /** The environment variable of the budget (`MAX_ANALYSIS_BYTES` or `ANALYSES_MAX_BYTES`). */
    readonly variable: string,
    /** The budget, bytes. */
    readonly max: number,
  ) {
    super(message);
  }

  override extensions(): Record<string, unknown> {
    return { limit: this.variable, max: this.max };
  }
}

/**
 * An update of an analysis already at the last version a 32-bit `version` can hold (which the API
 * serves as a GraphQL `Int` and PostgreSQL stores as `INTEGER`): there is no next version to give
 * it, so the update is refused and nothing is written. A retry cannot succeed; a copy saved as a
 * new analysis starts again at version 1.
 */
export class VersionLimitError extends ServiceError {
  override readonly name = 'VersionLimitError';
  readonly code = ErrorCode.StorageLimitExceeded;
  constructor(
    /** The analysis's version now. */
    readonly currentVersion: number,
    /** The last version an analysis can have (2^31 - 1). */
    readonly maxVersion: number,
  ) {
    super(
      `The analysis is at version ${currentVersion}, the last version an analysis can have, so it cannot be updated ` +
        'any more; nothing was written. Save it, with your changes, as a new analysis, and edit that one instead.',
    );
  }

  override extensions(): Record<string, unknown> {
    return { currentVersion: this.currentVersion, max: this.maxVersion };
  }
}

/** The database cannot be used right now; `reason` is the database's own words, e.g. `database is locked`. */
export class DatabaseUnavailableError extends ServiceError {
  override readonly name = 'DatabaseUnavailableError';
  readonly code = ErrorCode.ServiceUnavailable;
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`The database is unavailable (${reason}); try again later. Path questions are still answered.`, options);
  }

  override extensions(): Record<string, unknown> {
    return { reason: this.reason };
  }
}
