/**
 * What an idempotent save keeps of its key, and why a database reader learns nothing from it.
 *
 * A client that retries a save (its answer was lost) sends the same idempotency key, and gets the
 * first save's answer, edit token included. The record of that first save must hold the token in
 * a form only the key's holder can read back, because the service otherwise stores only a hash
 * of the token: so the record is keyed by the SHA-256 of the idempotency key (the key itself is
 * never stored), and holds the token sealed with AES-256-GCM under a key derived from the
 * idempotency key by HKDF-SHA-256, bound to the analysis's id. Someone who reads the database
 * holds neither the idempotency key nor the token: use a random key (a UUID), which a hash does
 * not give away.
 *
 * The fingerprint is the SHA-256 of the save's input in a canonical form (keys sorted), so that a
 * retry is recognised whatever order its JSON fields came in, and a key sent again with other
 * input is refused instead of answering a save of something else.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/** Longest idempotency key, in characters. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** What is wrong with a client's idempotency key, or undefined when it is fine: 1 to 255 printable ASCII characters. */
export function idempotencyKeyProblem(key: string): string | undefined {
  if (key.length === 0) return 'is empty: an idempotency key has 1 to 255 printable ASCII characters';
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    return `is ${key.length} characters long: an idempotency key has 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters`;
  }
  if (!/^[\x20-\x7e]+$/.test(key)) {
    return 'holds a character that is not printable ASCII: an idempotency key has 1 to 255 of them (a UUID is a good key)';
  }
  return undefined;
}

/** Hex SHA-256 of an idempotency key: the record's primary key. */
export function hashIdempotencyKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** `value` as JSON with every object's keys sorted, so equal inputs have one text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The input of a save, as its fingerprint reads it. */
export interface SaveInputText {
  title: string;
  notes: string | null;
  fen: string | null;
  pgn?: string | null;
  queries: unknown;
}

/** Hex SHA-256 of the save's input in canonical form (see the file comment). */
export function saveFingerprint(input: SaveInputText): string {
  // A game is named only when given, so fingerprints of saves without one stay as they were.
  const text = canonicalJson({
    title: input.title,
    notes: input.notes,
    fen: input.fen,
    ...(input.pgn ? { pgn: input.pgn } : {}),
    queries: input.queries,
  });
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

const SALT = Buffer.from('chess-paths idempotent save', 'utf8');
const INFO = Buffer.from('edit token', 'utf8');
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The AES-256 key derived from an idempotency key. */
function sealingKey(idempotencyKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(idempotencyKey, 'utf8'), SALT, INFO, 32));
}

/** The edit token sealed under the idempotency key, bound to the analysis id: base64url of IV, ciphertext and tag. */
export function sealEditToken(idempotencyKey: string, editToken: string, analysisId: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(idempotencyKey), iv);
  cipher.setAAD(Buffer.from(analysisId, 'utf8'));
  const sealed = Buffer.concat([cipher.update(editToken, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
}

/** The edit token `sealEditToken` sealed, or undefined when the key, the id or the text is not the one sealed. */
export function openEditToken(idempotencyKey: string, sealed: string, analysisId: string): string | undefined {
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length < IV_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(idempotencyKey), bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(analysisId, 'utf8'));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const text = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
    return text.toString('utf8');
  } catch {
    return undefined;
  }
}
