/**
 * The cursor of a page of saved analyses: an analysis's place in the newest-first order (its
 * creation time and id, which breaks ties), written as opaque base64url so that clients pass it
 * back rather than build it, and read back strictly (one text a place), since it comes from them.
 */
import { InputError } from '@chess-paths/engine';

const CURSOR_PREFIX = 'analysis:';

/** Opaque cursor of an analysis in the newest-first order. */
export function encodeAnalysisCursor(createdAt: Date, id: string): string {
  return Buffer.from(`${CURSOR_PREFIX}${createdAt.getTime()}:${id}`, 'utf8').toString('base64url');
}

/** Decodes a cursor; a malformed one is an `InputError` on `after`. */
export function decodeAnalysisCursor(cursor: string): { createdAt: Date; id: string } {
  const bad = () => new InputError(['after'], cursor, 'is not a valid cursor');
  if (typeof cursor !== 'string' || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw bad();
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (Buffer.from(text, 'utf8').toString('base64url') !== cursor) throw bad();
  const match = /^analysis:(\d{1,15}):(.+)$/s.exec(text);
  if (!match) throw bad();
  const createdAt = new Date(Number(match[1]));
  if (Number.isNaN(createdAt.getTime())) throw bad();
  return { createdAt, id: match[2] };
}
