/**
 * A bound on the size of one answer (`MAX_RESPONSE_BYTES`). Within every other limit a small
 * request can still ask for an enormous answer: a batch of 500 results times 30 aliases, each
 * with an ASCII picture of a 64 x 64 board (half a megabyte and more), its layers as bitboards, a
 * thousand paths of two thousand squares. graphql-js builds the whole result in memory before it
 * is written, so such an answer would exhaust the heap (or JSON.stringify's string length) long
 * after the work was done. The resolvers of the fields that can be large (pictures, square sets,
 * paths and their cursors, distance maps, masks) charge the size of what they return, roughly in
 * bytes of JSON, to the request's account; past the limit each of those fields fails with
 * `RESPONSE_TOO_LARGE`, so an answer overshoots by at most one value. Small fields are not
 * counted: their total is bounded by the other limits (batch size, aliases, cost).
 *
 * The same account paces the answer: graphql-js completes a value synchronously once its resolver
 * returns it, so the layer lists of a batch of long results would be built and walked in one
 * piece. The resolvers of large containers (a result's layer list, a page of paths, a distance
 * map, a picture) therefore hand their value over through `pace`: once a request has passed about
 * `PACE_BYTES` without a pause, the value is built and handed over one event-loop turn later (one
 * chained `setImmediate` per `PACE_BYTES`), so a large answer takes many short turns and other
 * requests are served in between. Pacing is per container, not per square name: a million
 * promises would cost more than the work they spread.
 */

/** Bytes of large values a request hands to graphql-js between two event-loop turns. */
export const PACE_BYTES = 64 * 1024;

import { ErrorCode, ServiceError } from '../../errors.js';
import { nextTurn } from '../work/turns.js';

/** The answer would be over `MAX_RESPONSE_BYTES`. */
export class ResponseTooLargeError extends ServiceError {
  override readonly name = 'ResponseTooLargeError';
  readonly code = ErrorCode.ResponseTooLarge;
  constructor(readonly maxBytes: number) {
    super(
      `The answer would be over the limit of ${maxBytes} bytes (MAX_RESPONSE_BYTES): ` +
        'ask for fewer or smaller pictures, layers, paths or distance maps per request',
    );
  }

  override extensions(): Record<string, unknown> {
    return { limit: 'MAX_RESPONSE_BYTES', max: this.maxBytes };
  }
}

/** One request's account of large output. */
export class OutputBudget {
  #bytes = 0;
  /** Bytes handed over since the current turn began, and the turn later values wait for. */
  #turnBytes = 0;
  #turn: Promise<void> | undefined;
  #error: ResponseTooLargeError | undefined;

  /**
   * Whether the answer goes out as JSON text, where every `"` of a picture is escaped (true), or
   * its values are sent as they are made, as a picture route sends its SVG (false).
   */
  json = true;

  /** `maxBytes` 0 means no limit. */
  constructor(readonly maxBytes: number) {}

  /** Bytes of large values charged so far. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Throws `ResponseTooLargeError` once the account (plus `more` bytes about to be made) is over the limit. */
  check(more = 0): void {
    // One error for the whole request: a list of results failing one by one would otherwise
    // capture a stack trace for each.
    if (this.maxBytes > 0 && this.#bytes + more > this.maxBytes)
      throw (this.#error ??= new ResponseTooLargeError(this.maxBytes));
  }

  /**
   * Holds `bytes` for a value about to be made (throws when they are not there): siblings made
   * at the same time (six pictures of one request) see each other's share, so they cannot all
   * pass a check and then be made. The holder gives it back with `release` when it charges what
   * it made, or when it fails.
   */
  reserve(bytes: number): void {
    this.check(bytes);
    this.#bytes += bytes;
  }

  /** Gives back `bytes` held by `reserve`. */
  release(bytes: number): void {
    this.#bytes -= bytes;
  }

  /** Charges `bytes` for `value` and returns it, or throws when that goes over the limit. */
  pass<T>(value: T, bytes: number): T {
    this.#bytes += bytes;
    this.check();
    return value;
  }

  /**
   * Builds a container of about `bytes` of output with `make`, now or, once this turn has passed
   * `PACE_BYTES`, on a later turn. Charges nothing: its fields charge what they hand out.
   */
  pace<T>(bytes: number, make: () => T): T | Promise<T> {
    this.#turnBytes += bytes;
    if (this.#turnBytes > PACE_BYTES) {
      this.#turnBytes = bytes;
      const previous = this.#turn ?? Promise.resolve();
      this.#turn = previous.then(nextTurn);
    }
    return this.#turn === undefined ? make() : this.#turn.then(make);
  }
}

/** Rough JSON size of a list of square names (`"e4",` and the like). */
export function squareListBytes(count: number): number {
  return count * 6;
}
