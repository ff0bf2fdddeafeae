/**
 * The built command run on a terminal of a chosen size, as a person runs it: under `script`
 * (util-linux), which gives the child a pseudo-terminal, sized with `stty` before the command
 * starts, so Node sees `isTTY` and the columns and rows. Output is read back without the
 * terminal's CR-LF translation (`-onlcr`), so it compares with what a pipe would get.
 */
import { spawnSync } from 'node:child_process';
import { ROOT } from './child-server.js';
import { CLI } from './cli-process.js';

/** True when `script` can be run (it is not on every machine). */
export const HAS_SCRIPT = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

/** A word for sh, quoted. */
function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** How a run on a terminal ended: what the terminal showed, and the exit status. */
export interface TerminalRun {
  status: number | null;
  screen: string;
}

/**
 * Runs `node dist/cli.js ...args` on a `columns` x `rows` terminal. `stderr` is where standard
 * error goes: the terminal too (default), or a file path (then it is not a terminal).
 */
export function runOnTerminal(args: string[], size: { columns: number; rows: number }, stderr?: string): TerminalRun {
  const command = [process.execPath, CLI, ...args].map(quote).join(' ');
  const redirect = stderr === undefined ? '' : ` 2>${quote(stderr)}`;
  const shell = `stty cols ${size.columns} rows ${size.rows} -onlcr; exec ${command}${redirect}`;
  // -e: the command's exit status; -q: no "Script started" lines; the log file is not wanted.
  const run = spawnSync('script', ['-qec', shell, '/dev/null'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
    maxBuffer: 256 * 1024 * 1024,
  });
  return { status: run.status, screen: run.stdout };
}
