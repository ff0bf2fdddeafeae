/** Temporary directories, quiet loggers, synthetic cache rows and an event-loop probe for the store tests. */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CanonicalProblem } from '@chess-paths/engine';
import type { StoreLogger } from '../../src/store/migrate.js';
import type { PreparedProblem, StoredResult } from '../../src/store/types.js';

/** A fresh temporary directory, removed by the returned cleanup. */
export function tempDir(prefix = 'chess-paths-store-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A logger that records what it is given. */
export function recordingLogger(): StoreLogger & { lines: { level: string; msg: string; obj: object }[] } {
  const lines: { level: string; msg: string; obj: object }[] = [];
  return {
    lines,
    info: (obj, msg) => lines.push({ level: 'info', msg, obj }),
    warn: (obj, msg) => lines.push({ level: 'warn', msg, obj }),
    error: (obj, msg) => lines.push({ level: 'error', msg, obj }),
  };
}

/** Deterministic bytes: `n` of them, the SHA-256 of `seed` repeated. */
export function bytesFrom(seed: string, n: number): Uint8Array {
  const out = new Uint8Array(n);
  if (n > 0) Buffer.from(out.buffer).fill(createHash('sha256').update(seed).digest());
  return out;
}

/**
 * A synthetic cache row number `i` (the store treats problems and layers as opaque): a hex key,
 * a king problem of its own, and `layerBytes` bytes of layers. Rows of more than 4 KB of layers
 * get a 64 x 64 board (the store refuses large rows for boards up to 32 x 32), smaller ones 8 x 8.
 */
export function syntheticResult(i: number, layerBytes = 64, pathCount: bigint | undefined = undefined): StoredResult {
  const key = createHash('sha256').update(`row ${i}`).digest('hex');
  const side = layerBytes > 4096 ? 64 : 8;
  const digits = (side * side) / 4;
  const problem: CanonicalProblem = {
    piece: 'KING',
    files: side,
    ranks: side,
    mask: `0x${'f'.repeat(digits)}`,
    sources: `0x${(1n << BigInt(i % (side * side))).toString(16).padStart(digits, '0')}`,
    targets: `0x${BigInt(i).toString(16).padStart(digits, '0')}`,
  };
  return { key, problem, distance: i % 7, layers: bytesFrom(key, layerBytes), pathCount };
}

/** The question a stored result answers. */
export function questionOf(result: StoredResult): PreparedProblem {
  return { key: result.key, problem: result.problem };
}

/** Counts `setImmediate` turns until stopped: proves the event loop ran meanwhile. */
export function immediateCounter(): { stop: () => number } {
  let turns = 0;
  let running = true;
  const spin = () => {
    turns++;
    if (running) setImmediate(spin);
  };
  setImmediate(spin);
  return {
    stop: () => {
      running = false;
      return turns;
    },
  };
}
