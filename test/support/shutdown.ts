/**
 * What the shutdown tests share: a throw-away SQLite file per server, the shutdown timeout they
 * give it, and what a clean refusal looks like (503, code OVERLOADED, a Retry-After header).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RawOutcome } from './raw-post.js';

/** The SHUTDOWN_TIMEOUT_MS the tests' servers run with. */
export const SHUTDOWN_TIMEOUT_MS = 3000;

/** Throw-away SQLite files: `next()` names a new one in a directory of its own, `cleanup()` removes them all. */
export function shutdownDatabases(): { next(): { url: string; file: string }; cleanup(): void } {
  const dirs: string[] = [];
  return {
    next() {
      const dir = mkdtempSync(join(tmpdir(), 'chess-paths-shutdown-'));
      dirs.push(dir);
      const file = join(dir, 'shutdown.db');
      return { url: `file:${file}`, file };
    },
    cleanup() {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** True for a clean refusal: 503, code OVERLOADED, a Retry-After header. */
export function isRefusal(outcome: RawOutcome): boolean {
  return (
    outcome.kind === 'answer' &&
    outcome.status === 503 &&
    outcome.retryAfter !== undefined &&
    outcome.json?.errors?.[0]?.extensions?.code === 'OVERLOADED'
  );
}
