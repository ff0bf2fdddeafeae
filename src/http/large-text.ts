/**
 * Writing a large answer without holding the event loop. Node turns a string into UTF-8 twice
 * when it is sent whole: once to count its bytes for `Content-Length`, once in the socket's
 * write. For a 16 MB answer each pass takes tens of milliseconds in one piece, during which no
 * other client is served. A text over `LARGE_TEXT` characters is therefore encoded into buffers
 * one piece a turn (`nextTurn`), its length is the sum of theirs, and the socket writes the
 * buffers as they are. Smaller texts are written whole, which is cheaper for them.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { nextTurn } from '../graphql/work/turns.js';

/** Characters from which a text is encoded in pieces. */
export const LARGE_TEXT = 1 << 20;

/** Characters encoded a turn: about a millisecond of work. */
const PIECE_CHARS = 1 << 18;

/** True for a text `sendText` encodes in pieces. */
export function isLargeText(text: string): boolean {
  return text.length > LARGE_TEXT;
}

/**
 * The UTF-8 bytes of `text` as buffers of about `PIECE_CHARS` characters each, one made a turn.
 * A piece never ends between the two halves of a surrogate pair, which would encode as two
 * replacement characters.
 */
export async function utf8Pieces(text: string): Promise<Buffer[]> {
  const pieces: Buffer[] = [];
  for (let start = 0; start < text.length; ) {
    if (start > 0) await nextTurn();
    let end = Math.min(text.length, start + PIECE_CHARS);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    pieces.push(Buffer.from(text.slice(start, end), 'utf8'));
    start = end;
  }
  return pieces;
}

/**
 * A strong entity tag of `prefix` and the pieces, hashed one piece a turn: the form of the
 * `etag` package's tags (byte length in hex, then 27 characters of base64 SHA-1).
 */
export async function piecesEtag(prefix: string, pieces: Buffer[]): Promise<string> {
  const hash = createHash('sha1').update(prefix, 'utf8');
  let length = Buffer.byteLength(prefix);
  for (const [i, piece] of pieces.entries()) {
    if (i > 0) await nextTurn();
    hash.update(piece);
    length += piece.length;
  }
  return `"${length.toString(16)}-${hash.digest('base64').slice(0, 27)}"`;
}

/** Sets `Content-Length` and sends the pieces; the caller has set status and other headers. */
export function sendPieces(res: ServerResponse, pieces: Buffer[]): void {
  res.setHeader(
    'content-length',
    pieces.reduce((sum, piece) => sum + piece.length, 0),
  );
  for (const piece of pieces) res.write(piece);
  res.end();
}

/** Sends `text` as the body, in pieces when it is large; the caller has set status and other headers. */
export async function sendText(res: ServerResponse, text: string): Promise<void> {
  if (!isLargeText(text)) {
    res.setHeader('content-length', Buffer.byteLength(text));
    res.end(text);
    return;
  }
  sendPieces(res, await utf8Pieces(text));
}

/** Characters (or bytes) written to a socket before waiting for the client to take them. */
const STREAM_PIECE_CHARS = 64 * 1024;

/**
 * Sends `text` as the body a piece at a time, each encoded and written only once the client has
 * taken the one before (backpressure): a client that reads slowly holds one piece in the
 * socket's buffer, not a copy of the whole answer. Writing stops when the client leaves, and a
 * client that takes nothing for `stallMs` is dropped (its socket destroyed), so one that never
 * reads holds its answer for that long at most. The caller has set status and other headers;
 * `Content-Length` is set here.
 */
export async function streamText(res: ServerResponse, text: string, stallMs: number): Promise<void> {
  res.setHeader('content-length', Buffer.byteLength(text));
  for (let start = 0; start < text.length; ) {
    if (res.destroyed) return;
    let end = Math.min(text.length, start + STREAM_PIECE_CHARS);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++; // never split a surrogate pair
    const piece = text.slice(start, end);
    start = end;
    if (!res.write(piece) && !(await waitForDrain(res, stallMs))) {
      res.destroy();
      return;
    }
  }
  res.end();
}

/**
 * Sends `bytes` as the body a piece at a time, as `streamText` sends a text: each piece written
 * once the client took the one before, writing stopped when it leaves, and a client that takes
 * nothing for `stallMs` dropped. The caller has set status and other headers.
 */
export async function streamBytes(res: ServerResponse, bytes: Uint8Array, stallMs: number): Promise<void> {
  res.setHeader('content-length', bytes.length);
  for (let start = 0; start < bytes.length; start += STREAM_PIECE_CHARS) {
    if (res.destroyed) return;
    const piece = bytes.subarray(start, start + STREAM_PIECE_CHARS);
    if (!res.write(piece) && !(await waitForDrain(res, stallMs))) {
      res.destroy();
      return;
    }
  }
  res.end();
}

/** Resolves true once `res` drains, false when it closes first or nothing drains within `stallMs`. */
function waitForDrain(res: ServerResponse, stallMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (drained: boolean) => {
      clearTimeout(timer);
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(drained);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    const timer = setTimeout(() => done(false), stallMs);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}
