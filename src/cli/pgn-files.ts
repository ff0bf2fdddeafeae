/**
 * The games of a PGN file, one at a time, for `chess-paths game`: the file is read in chunks and
 * cut into games at the tag pairs that open the next one (a tag line after movetext), so a file of
 * a month of games, or a tournament's, is read in constant memory. Each game is handed on with
 * the line it starts on, for messages.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { InputError } from '@chess-paths/engine';

/** One game's text and the line of the file it starts on (1-based); `bytes` past `maxBytes`, the text left out. */
export interface GameText {
  text: string;
  line: number;
  /** Its size in bytes of the file. */
  bytes: number;
}

/** Bytes read at a time. */
const CHUNK = 64 * 1024;

/** The lines of a file (or standard input for `-`), read in chunks. */
function* linesOf(file: string): Generator<string> {
  let fd: number;
  try {
    fd = file === '-' ? 0 : openSync(file, 'r');
  } catch (err) {
    const reason =
      (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be read: ${(err as Error).message}`;
    throw new InputError(['FILE'], file, reason);
  }
  const buffer = Buffer.alloc(CHUNK);
  const decoder = new TextDecoder('utf-8');
  let rest = '';
  try {
    for (;;) {
      let read: number;
      try {
        read = readSync(fd, buffer, 0, CHUNK, null);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EAGAIN') continue;
        if ((err as NodeJS.ErrnoException).code === 'EOF') break;
        throw new InputError(['FILE'], file, `cannot be read: ${(err as Error).message}`);
      }
      if (read === 0) break;
      rest += decoder.decode(buffer.subarray(0, read), { stream: true });
      const lines = rest.split('\n');
      rest = lines.pop() ?? '';
      yield* lines;
      // A line with no end in sight is handed on in pieces: memory stays bounded whatever the file.
      if (rest.length > 8 * CHUNK) {
        yield rest;
        rest = '';
      }
    }
    rest += decoder.decode();
    if (rest !== '') yield rest;
  } finally {
    if (fd !== 0) closeSync(fd);
  }
}

const TAG_LINE = /^\s*\[[A-Za-z0-9_]+\s*"/;

/**
 * The games of a file, in order: a tag line after movetext starts the next one. A game's text is
 * kept up to `maxBytes` (a game over it is handed on by its size alone, its text dropped).
 */
export function* gamesOf(file: string, maxBytes: number): Generator<GameText> {
  let lines: string[] = [];
  let bytes = 0;
  let start = 1;
  let number = 0;
  let inMoves = false;
  const game = (): GameText => ({ text: bytes > maxBytes ? '' : lines.join('\n'), line: start, bytes });
  for (const line of linesOf(file)) {
    number++;
    const trimmed = line.trim();
    if (inMoves && TAG_LINE.test(trimmed)) {
      yield game();
      lines = [];
      bytes = 0;
      start = number;
      inMoves = false;
    }
    if (trimmed !== '' && !TAG_LINE.test(trimmed) && !trimmed.startsWith('%')) inMoves = true;
    if (lines.length === 0 && bytes === 0 && trimmed === '') {
      start = number + 1;
      continue;
    }
    bytes += Buffer.byteLength(line) + 1;
    if (bytes <= maxBytes) lines.push(line);
    else lines = [];
  }
  if (bytes > 0 && (bytes > maxBytes || lines.some((l) => l.trim() !== ''))) yield game();
}
