/**
 * The two kernels of the 8 x 8 fast path (`kernel64.ts`): the WebAssembly build of
 * `src/wasm/fill64.ts` and the JavaScript `fill64.ts`. Properties: in Node the engine runs
 * on WebAssembly (a build that silently fell back would pass every other test); each kernel's
 * distance and layers match the reference BFS on random problems of every piece, from open boards
 * to mazes with distances over 20; `solve` answers every field the same whichever kernel
 * it uses; and where WebAssembly is refused, the engine falls back to JavaScript and still answers.
 */

import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FILL64_WASM } from '../../src/generated/fill64-wasm.js';
import { solve } from '../../src/index.js';
import { javascriptKernel, type Kernel64, standardKernel } from '../../src/kernels/kernel64.js';
import { PIECES } from '../../src/types.js';
import { decodeBase64Url } from '../../src/util/base64url.js';
import { caseArbitrary, expectResultMatchesReference, snapshotResult } from '../support/engine-harness.js';
import { REFERENCE_PIECES, referenceSolve } from '../support/reference-bfs.js';

const BOARD = { files: 8, ranks: 8 };

/** A word pair's squares, ascending. */
function squaresOf(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < 64; i++) if (((i < 32 ? lo : hi) >>> (i & 31)) & 1) out.push(i);
  return out;
}

/** Low and high words of a set of squares. */
function wordsOf(squares: readonly number[]): [number, number] {
  let lo = 0;
  let hi = 0;
  for (const s of squares) {
    if (s < 32) lo |= 1 << s;
    else hi |= 1 << (s - 32);
  }
  return [lo, hi];
}

/** What a kernel answers: the distance and each layer's squares. */
function runKernel(kernel: Kernel64, piece: number, passable: boolean[], sources: number[], targets: number[]) {
  const [pLo, pHi] = wordsOf(passable.flatMap((open, i) => (open ? [i] : [])));
  const [sLo, sHi] = wordsOf(sources.filter((s) => passable[s]));
  const [tLo, tHi] = wordsOf(targets.filter((t) => passable[t]));
  const distance = kernel.solve(piece, sLo, sHi, tLo, tHi, pLo, pHi);
  const layers: number[][] = [];
  for (let k = 0; k <= distance; k++) {
    const layer = squaresOf(kernel.words[2 * k], kernel.words[2 * k + 1]);
    // A kernel that counts each layer's squares (the WebAssembly one) must count them right.
    if (kernel.counts !== null) expect(kernel.counts[k], `count of layer ${k}`).toBe(layer.length);
    layers.push(layer);
  }
  return { distance: distance < 0 ? null : distance, layers };
}

/** A serpentine 8 x 8 maze: walls on ranks 2, 4 and 6, each with one gap, at alternating ends. */
function serpentine(): boolean[] {
  const passable = new Array<boolean>(64).fill(true);
  for (let rank = 1; rank < 7; rank += 2) {
    for (let file = 0; file < 8; file++) passable[rank * 8 + file] = false;
    passable[rank * 8 + (rank % 4 === 1 ? 7 : 0)] = true;
  }
  return passable;
}

const squares = (min: number, max: number) => fc.array(fc.integer({ min, max }), { minLength: 0, maxLength: 4 });

/** Random boards, and the maze crossed from its first rank to its last (long distances). */
const problem = fc.oneof(
  fc.record({
    piece: fc.integer({ min: 0, max: 6 }),
    passable: fc.oneof(
      fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }),
      fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 64, maxLength: 64 }).map((a) => a.map((v) => v > 0)),
    ),
    sources: squares(0, 63),
    targets: squares(0, 63),
  }),
  fc.record({
    piece: fc.integer({ min: 0, max: 6 }),
    passable: fc.constant(serpentine()),
    sources: squares(0, 7),
    targets: squares(56, 63),
  }),
);

describe('the 8 x 8 kernels', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('runs on WebAssembly in Node', () => {
    expect(standardKernel.name).toBe('webassembly');
    expect(javascriptKernel.name).toBe('javascript');
  });

  it('each kernel matches the reference BFS: distance and every layer, every piece', () => {
    let longest = 0;
    fc.assert(
      fc.property(problem, ({ piece, passable, sources, targets }) => {
        const reference = referenceSolve({
          piece: REFERENCE_PIECES[piece],
          ...BOARD,
          passable,
          sources,
          targets,
        });
        const expected = { distance: reference.distance, layers: reference.layers };
        expect(runKernel(standardKernel, piece, passable, sources, targets)).toEqual(expected);
        expect(runKernel(javascriptKernel, piece, passable, sources, targets)).toEqual(expected);
        longest = Math.max(longest, reference.distance ?? 0);
      }),
      { numRuns: 4000 },
    );
    expect(longest).toBeGreaterThan(20); // the maze was crossed
  });

  it('crosses the maze from end to end', () => {
    const passable = serpentine();
    const reference = referenceSolve({ piece: 'KING', ...BOARD, passable, sources: [0], targets: [56] });
    expect(reference.distance).toBeGreaterThan(20);
    for (const kernel of [standardKernel, javascriptKernel]) {
      expect(runKernel(kernel, 0, passable, [0], [56])).toEqual({
        distance: reference.distance,
        layers: reference.layers,
      });
    }
  });

  it('solve gives the same result, field by field, on either kernel', () => {
    fc.assert(
      fc.property(caseArbitrary(fc.constant(BOARD)), fc.integer({ min: 1, max: 4 }), ({ query, problem }, pageSize) => {
        const onJavascript = solve(query, { kernel: 'javascript' });
        expectResultMatchesReference(onJavascript, problem, referenceSolve(problem), { pageSize, pageCount: 2 });
        expect(snapshotResult(solve(query), pageSize, 2)).toEqual(snapshotResult(onJavascript, pageSize, 2));
      }),
      { numRuns: 400 },
    );
  });

  it('falls back to JavaScript where WebAssembly cannot be compiled, and still answers', async () => {
    // As under a Content-Security-Policy without 'wasm-unsafe-eval'.
    vi.stubGlobal('WebAssembly', {
      Module: () => {
        throw new Error('WebAssembly.Module(): Refused to compile');
      },
    });
    vi.resetModules();
    const kernel = await import('../../src/kernels/kernel64.js');
    const engine = await import('../../src/index.js');
    expect(kernel.standardKernel.name).toBe('javascript');
    const seed = engine.solve({ piece: 'KING', from: ['e4'], to: ['a1', 'h8'] });
    expect(seed.distance).toBe(4);
    expect(seed.layers.map((layer) => layer.squares)).toEqual([
      ['e4'],
      ['d3', 'd4', 'e5', 'f5'],
      ['c2', 'c3', 'f6', 'g6'],
      ['b1', 'b2', 'g7', 'h7'],
      ['a1', 'h8'],
    ]);
    expect(seed.pathCount).toBe(8n);
  });

  it('stays under 4 kB, which browsers compile synchronously on the main thread of a page', () => {
    // Chrome has refused `new WebAssembly.Module` of larger buffers on the main thread; the
    // engine compiles synchronously when it loads, and would fall back to JavaScript there.
    expect(decodeBase64Url(FILL64_WASM).length).toBeLessThan(4096);
  });

  it('numbers the pieces as PIECES does (the kernels take a piece as its index; FAIRY, last, has no kernel)', () => {
    expect(PIECES).toEqual([...REFERENCE_PIECES, 'FAIRY']);
  });
});
