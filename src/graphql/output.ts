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
 */

/** The answer would be over `MAX_RESPONSE_BYTES`. */
export class ResponseTooLargeError extends Error {
  override readonly name = 'ResponseTooLargeError';
  constructor(readonly maxBytes: number) {
    super(
      `The answer would be over the limit of ${maxBytes} bytes (MAX_RESPONSE_BYTES): ` +
        'ask for fewer or smaller pictures, layers, paths or distance maps per request',
    );
  }
}

/** One request's account of large output. */
export class OutputBudget {
  #bytes = 0;

  /** `maxBytes` 0 means no limit. */
  constructor(readonly maxBytes: number) {}

  /** Throws `ResponseTooLargeError` once the account is over the limit. */
  check(): void {
    if (this.maxBytes > 0 && this.#bytes > this.maxBytes) throw new ResponseTooLargeError(this.maxBytes);
  }

  /** Charges `bytes` for `value` and returns it, or throws when that goes over the limit. */
  pass<T>(value: T, bytes: number): T {
    this.#bytes += bytes;
    this.check();
    return value;
  }
}

/** Rough JSON size of a list of square names (`"e4",` and the like). */
export function squareListBytes(count: number): number {
  return count * 6;
}
