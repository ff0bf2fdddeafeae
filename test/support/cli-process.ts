/**
 * The built command (`dist/cli.js`, as the installed package runs it) in a child process, run to
 * completion without blocking the test's own event loop (a server of the test may be serving
 * meanwhile). Shared by the export and import tests.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ROOT } from './child-server.js';

/** The built command line. */
export const CLI = join(ROOT, 'dist', 'cli.js');

/** Throws unless the command is built (`npm run build`). */
export function requireBuiltCli(): void {
  if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run npm run build');
}

/** How a run ended. */
export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node dist/cli.js ...args`; `input` is written to its standard input. DATABASE_URL is not
 * inherited unless `env` sets it.
 */
export function runCli(
  args: string[],
  options: { input?: string; env?: Record<string, string> } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, ...options.env };
    if (!options.env?.DATABASE_URL) delete env.DATABASE_URL;
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** No line of a Node stack trace. */
export function expectNoStack(text: string): void {
  expect(text).not.toMatch(/^\s+at /m);
}
