/**
 * What a command knows of where its output goes: the two streams, whether standard output is a
 * terminal and how big (the picture is fitted to it), and whether standard error is one (the
 * progress line is drawn only there). Tests pass their own `Output`, with a fake terminal and
 * clock if they want one, so the rules are checked without a real terminal.
 */
import type { Screen } from './picture.js';
import { Progress } from './progress.js';

/** Where the command writes; the process's streams unless a test passes its own. */
export interface Output {
  out(text: string): void;
  err(text: string): void;
  /** Standard output's size when it is a terminal; absent for a pipe or a file. */
  screen?: Screen;
  /** Writes the progress line; present only when standard error is a terminal. */
  status?: { write(text: string): void; columns: number };
  /** True once standard output is closed (its reader gone): producing more would be wasted. */
  closed?(): boolean;
  /** Milliseconds, for the progress line's timing (performance.now() unless a test sets it). */
  now?(): number;
}

/** A TTY's size; a pseudo-terminal nobody sized reports 0 x 0, taken as the classic 80 x 24. */
function screenOf(stream: NodeJS.WriteStream): Screen {
  return { columns: stream.columns || 80, rows: stream.rows || 24 };
}

/** The process's own streams, as they are when the command starts. */
export function processOutput(): Output {
  const { stdout, stderr } = process;
  return {
    out: (text) => void stdout.write(text),
    err: (text) => void stderr.write(text),
    ...(stdout.isTTY ? { screen: screenOf(stdout) } : {}),
    ...(stderr.isTTY ? { status: { write: (text: string) => void stderr.write(text), ...screenOf(stderr) } } : {}),
    closed: () => stdout.destroyed,
  };
}

/** What a command gets besides its arguments. */
export interface Session {
  screen?: Screen;
  progress: Progress;
}

/** The session of one command run on `io`. */
export function sessionOf(io: Output): Session {
  const progress = new Progress(io.status?.write, io.status?.columns, io.now);
  return io.screen ? { screen: io.screen, progress } : { progress };
}

/**
 * Writes a command's output piece by piece as it is made (a forced picture of a large board is
 * far more than one string should hold), and stops early if standard output was closed. When
 * standard output is the terminal too, the progress line is erased before each piece so the two
 * never share a line; written elsewhere (a file), the line stays up while the pieces go out.
 */
export function writeAll(chunks: Iterable<string>, io: Output, session: Session): void {
  for (const chunk of chunks) {
    if (session.screen) session.progress.clear();
    io.out(chunk);
    if (io.closed?.()) return;
  }
}
