/**
 * Lines of an export file, read from a stream in bounded memory: at most one line (capped at
 * `maxLineBytes`) and one chunk of the stream are held at a time, whatever the file's size. Each
 * line is decoded as strict UTF-8 (bytes that are not UTF-8 are refused, not replaced), a `\r`
 * before the newline is dropped, and the file must end with a newline: a last line without one
 * was cut short (a copy that stopped, a disk that filled up), and is refused with its number.
 */
import type { Readable } from 'node:stream';
import { TransferError } from './format.js';

const NEWLINE = 0x0a;

/** One line of the file, 1-based, without its newline. */
export interface NumberedLine {
  line: number;
  text: string;
}

/** Yields the lines of `input`; throws `TransferError` for a line too long, not UTF-8, or cut short. */
export async function* readLines(input: Readable, maxLineBytes: number): AsyncGenerator<NumberedLine> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let pieces: Buffer[] = [];
  let pending = 0;
  let line = 0;
  const finish = (last: Buffer): NumberedLine => {
    line++;
    const bytes = pieces.length === 0 ? last : Buffer.concat([...pieces, last]);
    pieces = [];
    pending = 0;
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === 0x0d) end--;
    let text: string;
    try {
      text = decoder.decode(bytes.subarray(0, end));
    } catch {
      throw new TransferError('is not UTF-8 text', line);
    }
    return { line, text };
  };
  const tooLong = (): never => {
    throw new TransferError(
      `is longer than ${maxLineBytes} bytes (no analysis or cached result is that large)`,
      line + 1,
    );
  };
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    for (;;) {
      const newline = buffer.indexOf(NEWLINE, start);
      if (newline < 0) break;
      if (pending + (newline - start) > maxLineBytes) tooLong();
      yield finish(buffer.subarray(start, newline));
      start = newline + 1;
    }
    if (start < buffer.length) {
      const rest = buffer.subarray(start);
      pending += rest.length;
      if (pending > maxLineBytes) tooLong();
      // A copy: the stream may reuse its chunk's memory.
      pieces.push(Buffer.from(rest));
    }
  }
  if (pending > 0) {
    throw new TransferError(
      'the file ends in the middle of this line (no newline after it): it was cut short',
      line + 1,
    );
  }
}
