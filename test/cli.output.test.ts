/**
 * `chess-paths solve` where the output cannot be taken: a full disk (`/dev/full`) and a reader
 * that closes the pipe early end in one line on stderr and exit 1, never a stack trace; and
 * `--paths` is bounded like the API's page size, so no command line asks for unbounded work.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_LISTED_PATHS } from '../src/cli/solve.js';
import { ROOT } from './support/child-server.js';

const CLI = join(ROOT, 'dist', 'cli.js');

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build');
});

const BIG = ['solve', '--piece', 'king', '--board', '256x256', '--from', 'a1', '--to', 'iv1'];

describe('chess-paths solve output', () => {
  it.skipIf(!existsSync('/dev/full'))('to a full disk: one line, exit 1, no stack', () => {
    const full = openSync('/dev/full', 'w');
    try {
      const run = spawnSync(process.execPath, [CLI, ...BIG], { cwd: ROOT, stdio: ['ignore', full, 'pipe'] });
      const stderr = run.stderr.toString();
      expect(run.status).toBe(1);
      expect(stderr).toBe('chess-paths: could not write the output: no space left on the device (ENOSPC)\n');
    } finally {
      closeSync(full);
    }
  });

  it('to a pipe its reader closes: one line, exit 1, no stack', async () => {
    // 1,000 paths of 256 squares each: far more than a pipe holds, so the writer meets the close.
    const child = spawn(process.execPath, [CLI, ...BIG, '--paths', String(MAX_LISTED_PATHS)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
    expect(code).toBe(1);
    expect(stderr).toBe('chess-paths: the output was closed before it was all written (EPIPE)\n');
  });

  it(`--paths is at most ${MAX_LISTED_PATHS}, with a message saying how to list more`, () => {
    const run = spawnSync(process.execPath, [CLI, ...BIG, '--paths', '1000000000'], { cwd: ROOT, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `chess-paths: --paths: "1000000000" is over the limit of ${MAX_LISTED_PATHS} paths at a time; list more with --after and the last cursor (--json)\n`,
    );
    const most = spawnSync(process.execPath, [CLI, ...BIG, '--paths', String(MAX_LISTED_PATHS)], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(most.status).toBe(0);
    expect(most.stdout).toContain(`first ${MAX_LISTED_PATHS} of `);
  });
});
