/**
 * The vocabulary of the configuration table in `../config.ts`: the kinds of value a variable can hold
 * (each a parser, its written form and a phrase for the docs) and the shape of a row. A parser
 * gets the variable's set, non-blank text and throws `ConfigError` naming the variable and the
 * value, so a bad setting stops start-up instead of falling back to a default.
 */

import { resolve } from 'node:path';

/** A configuration value that cannot be used; the message names the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** How a variable's text becomes a value: `parse` gets a set, non-blank value and throws `ConfigError`. */
export interface Kind<T> {
  parse(raw: string, name: string): T;
  /** The value as it is written in the environment. */
  show(value: T): string;
  /** What the variable accepts, for the docs; empty when the description says it all. */
  accepts: string;
}

/** A whole number in `min..max`; underscores may group digits (`1_000_000`). */
export function integer(min: number, max = Number.MAX_SAFE_INTEGER): Kind<number> {
  const accepts = max === Number.MAX_SAFE_INTEGER ? `whole number, ${min} or more` : `whole number, ${min} to ${max}`;
  return {
    parse(raw, name) {
      const text = raw.trim();
      // Digits, grouped by single underscores between them (`1_000_000`, not `_1000` or `1__0`).
      if (!/^\d+(_\d+)*$/.test(text)) throw new ConfigError(`${name}=${JSON.stringify(raw)} is not a ${accepts}`);
      const value = Number(text.replace(/_/g, ''));
      if (value < min || value > max) throw new ConfigError(`${name}=${raw} is outside ${min}..${max}`);
      return value;
    },
    show: String,
    accepts,
  };
}

/** `true`/`false`, also `1`/`0`, `yes`/`no`, `on`/`off`, in any case. */
export const boolean: Kind<boolean> = {
  parse(raw, name) {
    const word = raw.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(word)) return true;
    if (['0', 'false', 'no', 'off'].includes(word)) return false;
    throw new ConfigError(`${name}=${JSON.stringify(raw)} is not a boolean (true or false; also 1/0, yes/no, on/off)`);
  },
  show: String,
  accepts: 'true or false',
};

/** Any text, trimmed. */
export const text: Kind<string> = { parse: (raw) => raw.trim(), show: String, accepts: '' };

/** One of `values`, in any case (the value is lower-cased). */
export function oneOf(values: readonly string[]): Kind<string> {
  return {
    parse(raw, name) {
      const value = raw.trim().toLowerCase();
      if (!values.includes(value))
        throw new ConfigError(`${name}=${JSON.stringify(value)} is not one of ${values.join(', ')}`);
      return value;
    },
    show: String,
    accepts: `one of ${values.join(', ')}`,
  };
}

/** A SQLite `file:` URL (the store reads the path out of it). */
export const databaseUrl: Kind<string> = {
  parse(raw, name) {
    const value = raw.trim();
    if (!/^(file:|postgres(ql)?:\/\/)/.test(value)) {
      throw new ConfigError(`${name}=${JSON.stringify(raw)} is neither a SQLite file: URL nor a postgresql:// URL`);
    }
    if (value.startsWith('file:')) {
      try {
        databaseFileFromUrl(value);
      } catch (error) {
        throw new ConfigError(`${name}: ${(error as Error).message.replace(/^DATABASE_URL /, '')}`);
      }
    } else {
      // An empty host is valid (a Unix socket given as ?host=, or PGHOST); the password stays out of the message.
      if (!URL.canParse(value))
        throw new ConfigError(`${name} is not a valid postgresql:// URL (postgresql://user:password@host:5432/db)`);
    }
    return value;
  },
  show: String,
  accepts: '',
};

/** Comma-separated browser origins (`scheme://host[:port]`, no path), `*` for any, or `none`. */
export const origins: Kind<string[]> = {
  parse(raw, name) {
    if (raw.trim().toLowerCase() === 'none') return [];
    const list = raw
      .split(',')
      .map((o) => o.trim())
      .filter((o) => o !== '');
    for (const origin of list) {
      if (origin !== '*' && !/^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+$/i.test(origin)) {
        throw new ConfigError(
          `${name}=${JSON.stringify(raw)}: ${JSON.stringify(origin)} is not an origin (scheme://host[:port]) or *`,
        );
      }
    }
    return list;
  },
  show: (list) => (list.length === 0 ? 'none' : list.join(',')),
  accepts: 'comma-separated origins, `*`, or `none`',
};

/** A heading of the generated docs, with the sentence under it. */
export interface Group {
  heading: string;
  intro: string;
}

/** One row of the table: one environment variable (its name is the row's key in the table). */
export interface Variable<T = unknown> {
  group: Group;
  /** The `Config` field it sets (`limits.x` for a limit); absent for a variable read to derive another field. */
  key?: string;
  kind: Kind<T>;
  default: T;
  /** When unset, take this earlier variable's value instead of `default`. */
  follows?: string;
  /** What it does, for users: one paragraph. */
  doc: string;
}

/** A row as the table writes it, before `group` adds its heading. */
export type Row<T> = Omit<Variable<T>, 'group'>;

/** Rows under one heading, in the order the docs list them. */
export function group<R extends Record<string, Row<unknown>>>(heading: string, intro: string, rows: R) {
  const g: Group = { heading, intro };
  const out: Record<string, Variable> = {};
  for (const [name, row] of Object.entries(rows)) out[name] = { group: g, ...row };
  return out as { [N in keyof R]: R[N] & { group: Group } };
}

/**
 * The file a `file:` URL names: `file:./x.db` and `file:x.db` are relative to the working
 * directory, `file:/abs/x.db` and `file:///abs/x.db` absolute; a `?query` part is ignored.
 */
export function databaseFileFromUrl(url: string, cwd: string = process.cwd()): string {
  if (!url.startsWith('file:')) {
    throw new Error(
      `DATABASE_URL must be a SQLite file: URL such as file:./data/chess-paths.db, got ${JSON.stringify(url)}`,
    );
  }
  let path = url.slice('file:'.length);
  const query = path.indexOf('?');
  if (query >= 0) path = path.slice(0, query);
  if (path.startsWith('//')) {
    // file://host/path: only an empty host (file:///abs) or localhost is a local file.
    const slash = path.indexOf('/', 2);
    const host = slash < 0 ? path.slice(2) : path.slice(2, slash);
    if (host !== '' && host !== 'localhost') throw new Error(`DATABASE_URL names a remote host: ${url}`);
    path = slash < 0 ? '' : path.slice(slash);
  }
  path = decodeURIComponent(path);
  if (path === '' || path === ':memory:') {
    throw new Error(`DATABASE_URL must name a database file (in-memory databases are not supported): ${url}`);
  }
  return resolve(cwd, path);
}
