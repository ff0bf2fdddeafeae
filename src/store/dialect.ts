/**
 * The two databases the store speaks: SQLite (a `file:` URL, the embedded default) and
 * PostgreSQL (a `postgresql://` URL, shared by several replicas). Almost everything goes through
 * Prisma, which hides the difference; the few statements written as SQL (the batched upsert, the
 * eviction, the trial write) are written once with `?` placeholders and numbered for PostgreSQL.
 */

/** Which database a store talks to. */
export type Dialect = 'sqlite' | 'postgresql';

/** The dialect a DATABASE_URL names, or undefined for neither. */
export function dialectOf(url: string): Dialect | undefined {
  if (url.startsWith('file:')) return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgresql';
  return undefined;
}

/** `text` with its `?` placeholders as the dialect writes them (`$1`, `$2`, ... on PostgreSQL). */
export function placeholders(dialect: Dialect, text: string): string {
  if (dialect === 'sqlite') return text;
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

/** A database URL fit for logs and messages: the password replaced by `***`. */
export function redactUrl(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:@/]*:)[^@/]*@/, '$1***@');
}
