/**
 * The command line's dispatcher: picks the command, prints help and the version, and turns every
 * error into a message and an exit code, so a user never sees a stack trace for their own
 * mistake. Exit codes: 0 done, 1 bad input (an `InputError`, worded by the engine, naming the
 * option), 2 a command line that is not understood (`UsageError`, with a hint to `--help`).
 * Anything else is a bug: its stack is printed, and it exits 1.
 */
import { parseArgs } from 'node:util';
import { InputError } from '@chess-paths/engine';
import { gameCommand, parseGameArgs } from './game.js';
import {
  EXPORT_HELP,
  GAME_HELP,
  IMPORT_HELP,
  MAIN_HELP,
  SERVE_HELP,
  SOLVE_HELP,
  USAGE_EXIT,
  UsageError,
  version,
} from './help.js';
import { parseSolveArgs, solveCommand } from './solve.js';
import { type Output, processOutput, sessionOf, writeAll } from './terminal.js';
import { exportCommand, importCommand, parseExportArgs, parseImportArgs } from './transfer.js';

export type { Output } from './terminal.js';

const HELP: Record<string, string> = {
  solve: SOLVE_HELP,
  game: GAME_HELP,
  serve: SERVE_HELP,
  export: EXPORT_HELP,
  import: IMPORT_HELP,
};

/** True when `-h` or `--help` comes before a `--` that ends the options. */
function asksHelp(args: string[]): boolean {
  const end = args.indexOf('--');
  const options = end === -1 ? args : args.slice(0, end);
  return options.includes('--help') || options.includes('-h');
}

/** parseArgs' own errors (unknown option, missing value) as usage errors, first sentence only. */
function usageFromParse(err: unknown, command?: string): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS_')) return err;
  const message = (err as Error).message;
  const end = message.indexOf('. ');
  return new UsageError(end === -1 ? message : message.slice(0, end), command);
}

/** `chess-paths serve`: the server's own entry point, loaded only now so `solve` stays light. */
async function serve(args: string[]): Promise<undefined> {
  parseArgs({ args, strict: true, allowPositionals: false, options: {} });
  const { main } = await import('../server.js');
  await main();
  return undefined;
}

async function dispatch(args: string[], io: Output): Promise<number | undefined> {
  const [command, ...rest] = args;
  if (command === undefined) {
    io.err(MAIN_HELP);
    return USAGE_EXIT;
  }
  if (command === '--help' || command === '-h') {
    io.out(MAIN_HELP);
    return 0;
  }
  if (command === 'help') {
    const topic = rest[0];
    if (topic !== undefined && HELP[topic] === undefined) throw new UsageError(`unknown command "${topic}"`);
    io.out(topic === undefined ? MAIN_HELP : HELP[topic]);
    return 0;
  }
  if (command === '--version' || command === '-v') {
    io.out(`${version()}\n`);
    return 0;
  }
  if (
    command === 'solve' ||
    command === 'game' ||
    command === 'serve' ||
    command === 'export' ||
    command === 'import'
  ) {
    if (asksHelp(rest)) {
      io.out(HELP[command]);
      return 0;
    }
    try {
      if (command === 'serve') return await serve(rest);
      if (command === 'export') return await exportCommand(parseExportArgs(rest), io);
      if (command === 'import') return await importCommand(parseImportArgs(rest), io);
      const session = sessionOf(io);
      try {
        const chunks =
          command === 'game'
            ? gameCommand(parseGameArgs(rest), session.progress)
            : solveCommand(parseSolveArgs(rest), session);
        writeAll(chunks, io, session);
      } finally {
        // An error's message must not land on the progress line.
        session.progress.clear();
      }
      return 0;
    } catch (err) {
      throw usageFromParse(err, command);
    }
  }
  throw new UsageError(command.startsWith('-') ? `unknown option "${command}"` : `unknown command "${command}"`);
}

/** One line saying why standard output could not be written. */
export function outputFailure(err: NodeJS.ErrnoException): string {
  if (err.code === 'EPIPE') return 'the output was closed before it was all written (EPIPE)';
  if (err.code === 'ENOSPC') return 'could not write the output: no space left on the device (ENOSPC)';
  return `could not write the output: ${err.message}`;
}

/** Runs the command line `args` (without node and the script); resolves to the exit code, or undefined while serving. */
export async function run(args: string[], io: Output = processOutput()): Promise<number | undefined> {
  try {
    return await dispatch(args, io);
  } catch (err) {
    if (err instanceof UsageError) {
      const where = err.command ? `chess-paths ${err.command}` : 'chess-paths';
      io.err(`${where}: ${err.message}\nRun '${where} --help' for usage.\n`);
      return USAGE_EXIT;
    }
    if (err instanceof InputError) {
      io.err(`chess-paths: ${err.message}\n`);
      return 1;
    }
    io.err(`chess-paths: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return 1;
  }
}
