/**
 * The engine bundles for a browser: src/index.ts bundled by esbuild for
 * `platform: 'browser'` with nothing external (a Node built-in import would fail the build), then
 * run in a fresh `node:vm` context holding only what a browser has (no `Buffer`, `process`,
 * `require`, `module`, `global`). There it solves the seed, with the same cache key and path
 * cursors as in Node, and still solves where WebAssembly is refused (the 8 x 8 kernel falls back
 * to JavaScript). The lint rule `engine-has-no-node-builtins` (.dependency-cruiser.cjs)
 * catches the imports earlier; this catches the globals.
 */
import { fileURLToPath } from 'node:url';
import { createContext, runInContext } from 'node:vm';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { solve } from '../src/index.js';

const entry = fileURLToPath(new URL('../src/index.ts', import.meta.url));

/** The bundle's exports, as the IIFE leaves them on `globalThis.chessPaths`. */
type Engine = typeof import('../src/index.js');

let context: object;
let engine: Engine;
let bundle: string;

beforeAll(async () => {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'chessPaths',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  });
  // Only browser globals; the context brings its own Uint8Array, BigInt, Math and the like.
  context = createContext({ TextEncoder, TextDecoder, atob, btoa, console });
  bundle = result.outputFiles[0].text;
  runInContext(bundle, context, { filename: 'chess-paths.browser.js' });
  engine = (context as { chessPaths: Engine }).chessPaths;
});

describe('the engine in a browser', () => {
  it('runs where there is no Buffer, process or require', () => {
    expect(
      runInContext('[typeof Buffer, typeof process, typeof require, typeof module, typeof global]', context),
    ).toEqual(['undefined', 'undefined', 'undefined', 'undefined', 'undefined']);
    expect(typeof engine.solve).toBe('function');
  });

  it('solves the seed with the key and cursors Node computes', () => {
    const query = { piece: 'KING', from: ['e4'], to: ['a1', 'h8'] } as const;
    const r = engine.solve(query);
    const node = solve(query);
    expect(r.distance).toBe(4);
    expect(String(r.pathCount)).toBe('8');
    expect(r.key).toBe(node.key);
    expect(r.key).toBe('e7ced073e3813fe89796944f0b1af7311ddd61d202bf2aacd17885d864421424');
    const first = r.paths({ first: 2 });
    expect(first.edges.map((e) => e.cursor)).toEqual(node.paths({ first: 2 }).edges.map((e) => e.cursor));
    expect(first.edges[0].cursor).toBe('cGF0aDoyOC4xOS4xMC4xLjA'); // path:28.19.10.1.0, as Buffer wrote it
    const next = r.paths({ first: 2, after: first.edges[1].cursor });
    expect(next.edges.map((e) => e.node.squares)).toEqual(
      node.paths({ first: 2, after: first.edges[1].cursor }).edges.map((e) => e.node.squares),
    );
    expect(next.edges[0].node.squares).toEqual(['e4', 'd3', 'c3', 'b2', 'a1']);
    expect(() => r.paths({ first: 1, after: 'not a cursor' })).toThrow(/is not a cursor of this result/);
  });

  it('solves where WebAssembly is refused (a strict Content-Security-Policy): the JavaScript kernel', () => {
    const strict = createContext({ TextEncoder, TextDecoder, atob, btoa, console });
    runInContext('globalThis.WebAssembly = undefined', strict);
    runInContext(bundle, strict, { filename: 'chess-paths.browser.js' });
    const fallback = (strict as { chessPaths: Engine }).chessPaths;
    for (const query of [
      { piece: 'KING', from: ['e4'], to: ['a1', 'h8'] },
      { piece: 'QUEEN', from: ['a1'], to: ['h7'], blocked: ['b2', 'g7'] },
      { piece: 'WHITE_PAWN', from: ['c2'], to: ['c5'] },
    ] as const) {
      const r = fallback.solve(query);
      const node = solve(query);
      expect(r.distance).toBe(node.distance);
      expect(r.layers.map((l) => l.squares)).toEqual(node.layers.map((l) => l.squares));
      expect(r.key).toBe(node.key);
    }
  });

  it('solves on a large board (typed-array words) as Node does', () => {
    const query = { piece: 'KNIGHT', board: { files: 100, ranks: 100 }, from: ['a1'], to: ['cv100'] } as const;
    const r = engine.solve(query);
    expect(r.distance).toBe(66);
    expect(String(r.pathCount)).toBe('7219428434016265740');
    expect(r.key).toBe(solve(query).key);
  });
});
