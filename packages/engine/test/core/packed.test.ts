/**
 * Packed layers (src/core/packed.ts) and results rebuilt from them (`solutionFromPacked`):
 * - over a fast-check corpus of random queries (all pieces, boards 1 x 1 to 40 x 40 with random
 *   obstacles, 1-4 sources and targets, unreachable ones included) the packed squares are the
 *   result's layers, the byte codec round-trips exactly, and a result rebuilt from the packed
 *   layers (checked) answers every field as the original does;
 * - `checkPacked` refuses packs that do not fit their problem (a square off the mask, an empty
 *   layer, a decreasing layer, a first layer outside S', a last layer outside T', a square in two
 *   layers), and `decodeLayers` refuses truncated, trailing, over-long and out-of-range bytes;
 * - a 64 x 64 king maze at distance ~2,000 stays small once encoded.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkPacked,
  decodeLayers,
  encodeLayers,
  type PackedLayers,
  type PathResult,
  type Prepared,
  packedBytes,
  packLayers,
  prepareQuery,
  solutionFromPacked,
  solve,
} from '../../src/index.js';
import { caseArbitrary } from '../support/engine-harness.js';
import { referenceFormatHex, referenceSolve, referenceSquareName } from '../support/reference-bfs.js';

/** A pack from layers given as index arrays (kept as given: no sorting, no checks). */
function pack(layers: readonly (readonly number[])[]): PackedLayers {
  const squares = new Uint16Array(layers.reduce((sum, layer) => sum + layer.length, 0));
  const starts = new Uint32Array(layers.length === 0 ? 0 : layers.length + 1);
  let at = 0;
  layers.forEach((layer, k) => {
    starts[k] = at;
    for (const v of layer) squares[at++] = v;
  });
  if (layers.length > 0) starts[layers.length] = at;
  return { squares, starts };
}

/** The layers of a pack as index arrays. */
function unpack(packed: PackedLayers): number[][] {
  const out: number[][] = [];
  for (let k = 0; k + 1 < packed.starts.length; k++)
    out.push(Array.from(packed.squares.subarray(packed.starts[k], packed.starts[k + 1])));
  return out;
}

const plain = (p: PackedLayers) => ({ squares: Array.from(p.squares), starts: Array.from(p.starts) });

/** Appends `value` as an unsigned LEB128 varint (written here, not taken from src). */
function varint(value: number): number[] {
  const out: number[] = [];
  while (value >= 0x80) {
    out.push((value & 0x7f) | 0x80);
    value = Math.floor(value / 128);
  }
  out.push(value);
  return out;
}

/** Every field a client can read, with the first `first` paths (cursors included). */
function fields(result: PathResult, first: number) {
  const page = result.paths({ first });
  const second = page.pageInfo.endCursor === null ? null : result.paths({ first, after: page.pageInfo.endCursor });
  return {
    key: result.key,
    reachable: result.reachable,
    distance: result.distance,
    layers: result.layers.map((l) => ({
      bitboard: l.bitboard,
      squares: l.squares,
      indices: l.indices,
      count: l.count,
    })),
    squares: result.squares.bitboard,
    sources: result.sources.bitboard,
    targets: result.targets.bitboard,
    pathCount: result.pathCount,
    path: result.path,
    page,
    second,
    distances: result.distances,
  };
}

interface Membership {
  passable: (v: number) => boolean;
  source: (v: number) => boolean;
  target: (v: number) => boolean;
}

function membershipOf(prepared: Prepared): Membership {
  const { data, words } = prepared;
  const bit = (offset: number, v: number) => ((data[offset + (v >>> 5)] >>> (v & 31)) & 1) === 1;
  return { passable: (v) => bit(0, v), source: (v) => bit(words, v), target: (v) => bit(2 * words, v) };
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

/**
 * Corruptions of a valid pack, each with the fault `checkPacked` must name; a corruption that does
 * not apply to this problem (no impassable square, distance 0, ...) is left out.
 */
function corruptions(
  layers: number[][],
  n: number,
  words: number,
  m: Membership,
): { name: string; packed: PackedLayers; fault: RegExp }[] {
  const out: { name: string; packed: PackedLayers; fault: RegExp }[] = [];
  const D = layers.length - 1;
  const used = new Set(layers.flat());
  const with_ = (k: number, layer: number[]) => layers.map((l, j) => (j === k ? layer : l));

  const blocked = Array.from({ length: n }, (_, v) => v).find((v) => !m.passable(v));
  if (blocked !== undefined) {
    const k = D >= 2 ? 1 : D;
    out.push({
      name: `impassable square ${blocked} in layer ${k}`,
      packed: pack(with_(k, sorted([...layers[k], blocked]))),
      fault: /leaves the mask/,
    });
  }
  // Squares past the board: in the last word's padding, and past every word.
  if (n < words * 32)
    out.push({
      name: 'square in the padding bits',
      packed: pack(with_(D, [...layers[D], n])),
      fault: /leaves the mask/,
    });
  if (words * 32 < 65536)
    out.push({
      name: 'square past the words',
      packed: pack(with_(D, [...layers[D], words * 32])),
      fault: /leaves the mask/,
    });

  // An empty layer inserted (the distance one more than the layers hold).
  const emptyAt = Math.min(1, D);
  out.push({
    name: `empty layer at ${emptyAt}`,
    packed: pack([...layers.slice(0, emptyAt), [], ...layers.slice(emptyAt)]),
    fault: /is empty/,
  });
  // Offsets that go backwards (a negative-size layer).
  if (D >= 1) {
    const p = pack(layers);
    const starts = Uint32Array.from(p.starts);
    starts[2] = starts[1] - 1; // layer 0 intact, layer 1 of size -1
    out.push({ name: 'offsets going backwards', packed: { squares: p.squares, starts }, fault: /layer 1 is empty/ });
  }
  // Offsets that do not cover the squares (a square after the last layer).
  {
    const p = pack(layers);
    const squares = new Uint16Array(p.squares.length + 1);
    squares.set(p.squares);
    squares[p.squares.length] = p.squares[p.squares.length - 1];
    out.push({
      name: 'square after the last layer',
      packed: { squares, starts: p.starts },
      fault: /offsets do not cover/,
    });
  }

  const wide = layers.findIndex((l) => l.length >= 2);
  if (wide >= 0) {
    const reversed = [...layers[wide]].reverse();
    out.push({ name: `layer ${wide} decreasing`, packed: pack(with_(wide, reversed)), fault: /not increasing/ });
    const doubled = [layers[wide][0], ...layers[wide]];
    out.push({ name: `layer ${wide} repeating a square`, packed: pack(with_(wide, doubled)), fault: /not increasing/ });
  }

  const free = Array.from({ length: n }, (_, v) => v).filter((v) => m.passable(v) && !used.has(v));
  const notSource = free.find((v) => !m.source(v));
  if (notSource !== undefined) {
    out.push({
      name: `first layer with non-source ${notSource}`,
      packed: pack(with_(0, sorted([...layers[0], notSource]))),
      fault: /first layer is not within the sources/,
    });
  }
  // At distance 0 the last layer is the first: the square must be a source to reach the target check.
  const notTarget = free.find((v) => !m.target(v) && (D > 0 || m.source(v)));
  if (notTarget !== undefined) {
    out.push({
      name: `last layer with non-target ${notTarget}`,
      packed: pack(with_(D, sorted([...layers[D], notTarget]))),
      fault: /last layer is not within the targets/,
    });
  }
  if (D >= 1) {
    // The last layer dropped: a pack of a shorter distance, whose last layer holds no target.
    out.push({
      name: 'last layer dropped',
      packed: pack(layers.slice(0, D)),
      fault: /last layer is not within the targets/,
    });
    // The first layer dropped: L_1 holds no source.
    out.push({
      name: 'first layer dropped',
      packed: pack(layers.slice(1)),
      fault: /first layer is not within the sources/,
    });
    // A square of L_0 repeated in L_1.
    out.push({
      name: 'square in two layers',
      packed: pack(with_(1, sorted([...layers[1], layers[0][0]]))),
      fault: /in two layers/,
    });
  } else {
    // Distance 0: the same square twice as two layers.
    out.push({
      name: 'square in two layers (distance 0)',
      packed: pack([layers[0], layers[0]]),
      fault: /in two layers/,
    });
  }
  return out;
}

describe('packed layers over random queries (boards up to 40 x 40)', () => {
  it('pack the layers, round-trip through bytes, and rebuild every field', () => {
    let reachable = 0;
    let runs = 0;
    let maxDistance = 0;
    fc.assert(
      fc.property(caseArbitrary(), fc.integer({ min: 1, max: 6 }), ({ query, problem }, first) => {
        runs++;
        const result = solve(query);
        const answer = referenceSolve(problem);
        const n = problem.files * problem.ranks;
        const packed = packLayers(result);

        // The pack is the layers (and, independently, the reference's layers).
        expect(unpack(packed)).toEqual(result.layers.map((l) => l.indices));
        expect(unpack(packed)).toEqual(answer.layers);
        expect(packed.starts.length).toBe(result.reachable ? result.layers.length + 1 : 0);
        expect(packedBytes(packed)).toBe(2 * packed.squares.length + 4 * packed.starts.length);

        // Bytes round-trip exactly (same arrays, same types).
        const bytes = encodeLayers(packed);
        const decoded = decodeLayers(bytes, n);
        expect(decoded.squares).toBeInstanceOf(Uint16Array);
        expect(decoded.starts).toBeInstanceOf(Uint32Array);
        expect(plain(decoded)).toEqual(plain(packed));

        // A result rebuilt from the decoded pack, checked, answers as the original.
        const prepared = prepareQuery(query);
        expect(() => checkPacked(decoded, prepared)).not.toThrow();
        const rebuilt = solutionFromPacked(prepared, decoded, { cached: true, check: true });
        expect(rebuilt.cached).toBe(true);
        expect(fields(rebuilt, first)).toEqual(fields(result, first));
        expect(rebuilt.pathCount).toBe(answer.pathCount);

        // With a known path count, it is served as given (not recomputed).
        const given = solutionFromPacked(prepareQuery(query), packed, {
          cached: false,
          pathCount: 12345n,
          check: true,
        });
        expect(given.pathCount).toBe(12345n);
        expect(given.cached).toBe(false);

        if (result.reachable) {
          reachable++;
          maxDistance = Math.max(maxDistance, result.distance!);
        }
      }),
      { numRuns: 1500 },
    );
    // The corpus means something only with a fair share of answers with paths, and some without.
    expect(reachable).toBeGreaterThan(runs * 0.3);
    expect(reachable).toBeLessThan(runs);
    expect(maxDistance).toBeGreaterThan(10);
  });

  it('checkPacked refuses every corrupted pack, naming the fault, and so does solutionFromPacked with check', () => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(caseArbitrary(), ({ query }) => {
        const result = solve(query);
        if (!result.reachable) return;
        const prepared = prepareQuery(query);
        const n = result.board.files * result.board.ranks;
        const layers = unpack(packLayers(result));
        // The uncorrupted pack passes: the refusals below are about the corruption.
        expect(() => checkPacked(pack(layers), prepared)).not.toThrow();
        for (const { name, packed, fault } of corruptions(layers, n, prepared.words, membershipOf(prepared))) {
          const kind = name.replace(/[0-9]+/g, '#');
          seen.set(kind, (seen.get(kind) ?? 0) + 1);
          expect(() => checkPacked(packed, prepared), name).toThrow(fault);
          expect(() => solutionFromPacked(prepared, packed, { cached: true, check: true }), name).toThrow(fault);
        }
      }),
      { numRuns: 800 },
    );
    // Every kind of corruption was tried on many problems.
    for (const kind of [
      'impassable square # in layer #',
      'empty layer at #',
      'layer # decreasing',
      'first layer with non-source #',
      'last layer with non-target #',
      'square in two layers',
      'square in two layers (distance #)',
      'last layer dropped',
      'first layer dropped',
      'square after the last layer',
      'offsets going backwards',
      'square in the padding bits',
      'square past the words',
    ]) {
      expect(seen.get(kind) ?? 0, kind).toBeGreaterThan(5);
    }
  });

  // A damaged square that keeps every layer passable, disjoint and increasing still breaks the moves.
  it('checkPacked refuses a pack whose middle layer does not connect (a damaged square)', () => {
    const query = { piece: 'KING' as const, from: ['a1'], to: ['h8'] };
    const prepared = prepareQuery(query);
    const good = packLayers(solve(query));
    expect(Array.from(good.squares)).toEqual([0, 9, 18, 27, 36, 45, 54, 63]);
    // d4 (27) damaged into h1 (7): passable, in no other layer, layer still increasing.
    const damaged = { squares: Uint16Array.from([0, 9, 18, 7, 36, 45, 54, 63]), starts: good.starts };
    expect(() => checkPacked(damaged, prepared)).toThrow();
  });

  it('solutionFromPacked refuses an invalid path count when checking', () => {
    const query = { piece: 'KING' as const, from: ['e4'], to: ['a1', 'h8'] };
    const packed = packLayers(solve(query));
    expect(() =>
      solutionFromPacked(prepareQuery(query), packed, { cached: true, check: true, pathCount: -1n }),
    ).toThrow(/path count/);
    expect(
      solutionFromPacked(prepareQuery(query), packed, { cached: true, check: true, pathCount: 8n }).pathCount,
    ).toBe(8n);
  });
});

describe('decodeLayers refuses malformed bytes', () => {
  it('every truncation, any trailing byte, an over-long number, and a too-small board', () => {
    fc.assert(
      fc.property(caseArbitrary(), fc.integer({ min: 0, max: 255 }), ({ query }, extra) => {
        const result = solve(query);
        const n = result.board.files * result.board.ranks;
        const packed = packLayers(result);
        const bytes = encodeLayers(packed);
        // Proper prefixes: all of them for short encodings, else the first 24, the last 24 and a sample.
        const cuts = new Set<number>();
        for (let i = 0; i < bytes.length; i++)
          if (bytes.length <= 64 || i < 24 || i >= bytes.length - 24 || i % 37 === 0) cuts.add(i);
        for (const cut of cuts)
          expect(() => decodeLayers(bytes.subarray(0, cut), n), `prefix ${cut}/${bytes.length}`).toThrow(
            /end too early/,
          );
        const longer = new Uint8Array(bytes.length + 1);
        longer.set(bytes);
        longer[bytes.length] = extra;
        expect(() => decodeLayers(longer, n)).toThrow(/trailing bytes/);
        // The layer count spelled with six bytes (over-long), then the rest as it was.
        const layerCount = packed.starts.length === 0 ? 0 : packed.starts.length - 1;
        const count = varint(layerCount);
        const head = [0, 1, 2, 3, 4].map((i) => (Math.floor(layerCount / 128 ** i) & 0x7f) | 0x80);
        const overLong = Uint8Array.from([...head, 0x00, ...bytes.subarray(count.length)]);
        expect(() => decodeLayers(overLong, n)).toThrow(/over-long/);
        // A board too small for the squares.
        if (packed.squares.length > 0) {
          const largest = Math.max(...packed.squares);
          expect(() => decodeLayers(bytes, largest)).toThrow();
          expect(plain(decodeLayers(bytes, largest + 1))).toEqual(plain(packed));
        }
      }),
      { numRuns: 600 },
    );
  });

  it('hand-made faults: too many layers, an empty layer, a square before 0 or past the board, too many squares', () => {
    expect(plain(decodeLayers(Uint8Array.from([0]), 4))).toEqual({ squares: [], starts: [] });
    expect(plain(decodeLayers(Uint8Array.from([2, 1, 0, 1, 2]), 4))).toEqual({ squares: [0, 1], starts: [0, 1, 2] });
    expect(() => decodeLayers(Uint8Array.from([]), 4)).toThrow(/end too early/);
    expect(() => decodeLayers(Uint8Array.from([5, 1, 0, 1, 2, 1, 2, 1, 2, 1, 2]), 4)).toThrow(/layers on a board of 4/);
    expect(() => decodeLayers(Uint8Array.from([1, 0]), 4)).toThrow(/bad size 0/);
    expect(() => decodeLayers(Uint8Array.from([1, 5, 0, 0, 0, 0, 0]), 4)).toThrow(/bad size 5/);
    expect(() => decodeLayers(Uint8Array.from([2, 2, 0, 0, 3, 2, 0, 0]), 4)).toThrow(/bad size 3/); // 2 + 3 squares > 4
    expect(() => decodeLayers(Uint8Array.from([1, 1, 1]), 4)).toThrow(/leaves the board/); // first square -1
    expect(() => decodeLayers(Uint8Array.from([1, 1, 8]), 4)).toThrow(/leaves the board/); // first square 4
    expect(() => decodeLayers(Uint8Array.from([1, 2, 0, 3]), 4)).toThrow(/leaves the board/); // 0, then 4
    expect(() => decodeLayers(Uint8Array.from([2, 1, 0, 1, 1]), 4)).toThrow(/leaves the board/); // 0, then 0 - 1
    expect(plain(decodeLayers(Uint8Array.from([2, 1, 6, 1, 1]), 4))).toEqual({ squares: [3, 2], starts: [0, 1, 2] }); // 3, then 3 - 1
    expect(() => decodeLayers(Uint8Array.from([0x80, 0x80, 0x80, 0x80, 0x80, 0x00]), 4)).toThrow(/over-long/);
    expect(() => decodeLayers(Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0x0f]), 65536)).toThrow(/layers on a board/);
  });
});

/**
 * A one-square-wide serpentine on `side` x `side`: every even rank open, every odd rank a wall
 * with one gap at alternating ends. The king walks every corridor from a1 to the far end of the
 * last open rank: distance ~ side^2 / 2.
 */
function serpentine(side: number) {
  const passable: boolean[] = [];
  for (let r = 0; r < side; r++) {
    const gap = (r >> 1) % 2 === 0 ? side - 1 : 0;
    for (let f = 0; f < side; f++) passable.push(r % 2 === 0 || f === gap);
  }
  const lastOpen = side % 2 === 0 ? side - 2 : side - 1;
  const end = ((lastOpen >> 1) % 2 === 0 ? side - 1 : 0) + lastOpen * side;
  const board = { files: side, ranks: side };
  return {
    query: {
      piece: 'KING' as const,
      board,
      from: ['a1'],
      to: [referenceSquareName(end, board)],
      mask: referenceFormatHex(passable, board),
    },
    problem: { piece: 'KING' as const, files: side, ranks: side, passable, sources: [0], targets: [end] },
  };
}

describe('size', () => {
  it('a 64 x 64 king serpentine at distance ~2,000 encodes to well under 16 KB', () => {
    const { query, problem } = serpentine(64);
    const result = solve(query);
    const answer = referenceSolve(problem);
    expect(result.distance).toBe(answer.distance);
    expect(result.distance).toBeGreaterThan(1900);
    const packed = packLayers(result);
    const bytes = encodeLayers(packed);
    console.log(
      `64 x 64 serpentine: distance ${result.distance}, ${packed.squares.length} layer squares, ` +
        `${bytes.length} bytes encoded, ${packedBytes(packed)} bytes packed, ${(result.distance! + 1) * 512} bytes as dense bitboards`,
    );
    expect(bytes.length).toBeLessThan(16_384);
    expect(packedBytes(packed)).toBeLessThan(16_384);
    const decoded = decodeLayers(bytes, 64 * 64);
    expect(plain(decoded)).toEqual(plain(packed));
    const prepared = prepareQuery(query);
    const rebuilt = solutionFromPacked(prepared, decoded, { cached: true, check: true });
    expect(rebuilt.layers.map((l) => l.indices)).toEqual(answer.layers);
    expect(rebuilt.pathCount).toBe(answer.pathCount);
    expect(rebuilt.path?.squares).toEqual(result.path?.squares);
  });
});
