/**
 * The field reader of an export line (`./parse.ts`): each field read once, with its
 * type and its range, and a field not asked about refused. The ranges are what the API serves
 * and the database stores, so that a row an import takes can always be written and answered:
 *
 * - integers the API serves as a GraphQL `Int` (an analysis's `version`, a result's distance)
 *   and that PostgreSQL keeps in an `INTEGER` column are 32-bit: at most `MAX_INT`;
 * - times are from 1970 to 9999: the service never wrote an earlier one, PostgreSQL refuses the
 *   year 0, and a page of `analyses` cannot continue past an analysis created before 1970 (its
 *   cursor holds the time as milliseconds since then);
 * - text is valid Unicode: both databases store text as UTF-8, which has no encoding for an
 *   unpaired UTF-16 surrogate, so such text would be stored altered (and an id would no longer
 *   be the file's).
 */
import { TransferError } from './format.js';

/** The largest 32-bit signed integer: GraphQL's `Int`, PostgreSQL's `INTEGER`. */
export const MAX_INT = 2 ** 31 - 1;
/** The earliest time a line may hold (1970-01-01T00:00:00.000Z). */
export const MIN_TIME = new Date(0);

/** A UTF-16 surrogate without its partner. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A short, quoted view of a value for messages. */
export function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Reads one object's fields, each checked once, and refuses fields it was not asked about. */
export class Fields {
  readonly #seen = new Set<string>();
  constructor(
    readonly object: Record<string, unknown>,
    readonly line: number,
    readonly what: string,
  ) {}

  #fail(name: string, expected: string): never {
    const value = this.object[name];
    const shown = value === undefined ? 'missing' : `${preview(value)} is not ${expected}`;
    throw new TransferError(`${this.what} field "${name}": ${shown}`, this.line);
  }

  #take(name: string): unknown {
    this.#seen.add(name);
    return this.object[name];
  }

  /** A string of valid Unicode (see the file comment). */
  string(name: string): string {
    const value = this.#take(name);
    if (typeof value !== 'string') this.#fail(name, 'a string');
    this.#unicode(name, value);
    return value;
  }

  nullableString(name: string): string | null {
    if (!(name in this.object)) this.#fail(name, 'a string or null');
    const value = this.#take(name);
    if (value === null) return null;
    if (typeof value !== 'string') this.#fail(name, 'a string or null');
    this.#unicode(name, value);
    return value;
  }

  #unicode(name: string, value: string): void {
    const lone = LONE_SURROGATE.exec(value);
    if (!lone) return;
    const code = lone[0].charCodeAt(0).toString(16).toUpperCase();
    throw new TransferError(
      `${this.what} field "${name}" holds an unpaired UTF-16 surrogate (U+${code} at ${lone.index}): not valid Unicode text, which the database cannot store as it is`,
      this.line,
    );
  }

  matching(name: string, pattern: RegExp, expected: string): string {
    const value = this.#take(name);
    if (typeof value !== 'string' || !pattern.test(value)) this.#fail(name, expected);
    return value;
  }

  integer(name: string, min: number, max: number = Number.MAX_SAFE_INTEGER): number {
    const value = this.#take(name);
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
      this.#fail(name, `an integer from ${min} to ${max}`);
    }
    return value;
  }

  nullableInteger(name: string, min: number, max?: number): number | null {
    if (!(name in this.object)) this.#fail(name, `an integer from ${min} or null`);
    if (this.object[name] === null) {
      this.#take(name);
      return null;
    }
    return this.integer(name, min, max);
  }

  boolean(name: string): boolean {
    const value = this.#take(name);
    if (typeof value !== 'boolean') this.#fail(name, 'true or false');
    return value;
  }

  /** A time as `toISOString` writes it, from `MIN_TIME` (the pattern's four digits end it at 9999). */
  date(name: string): Date {
    const value = this.#take(name);
    const date = typeof value === 'string' && ISO.test(value) ? new Date(value) : undefined;
    if (!date || Number.isNaN(date.getTime()) || date.toISOString() !== value) {
      this.#fail(name, 'a UTC time as 2026-01-31T12:00:00.000Z');
    }
    if (date < MIN_TIME) this.#fail(name, `a time from ${MIN_TIME.toISOString()} on`);
    return date;
  }

  array(name: string): unknown[] {
    const value = this.#take(name);
    if (!Array.isArray(value)) this.#fail(name, 'an array');
    return value;
  }

  fail(name: string, expected: string): never {
    return this.#fail(name, expected);
  }

  /** Refuses any field not read. */
  done(): void {
    for (const name of Object.keys(this.object)) {
      if (!this.#seen.has(name)) throw new TransferError(`${this.what} has an unknown field "${name}"`, this.line);
    }
  }
}
