/**
 * The path layer of the SVG diagram (src/pictures/diagram-path.ts): a hopper's smallest path rings each
 * hurdle its moves jump (a blocked square, a square outside the mask, a FEN's piece), at that
 * square's place on the board, above the hatching and the pieces, with a "hurdle jumped" legend
 * row; a picture of any other piece, or with no path, has neither; and the length bound still
 * holds with one ring a move on the largest board.
 */
import { describe, expect, it } from 'vitest';
import {
  diagramLengthBound,
  hopHurdle,
  type PathQuery,
  type PathResult,
  parseBitboard,
  parseFen,
  parseSquare,
  pathHurdles,
  readBetza,
  STANDARD_BOARD,
  solve,
} from '../../src/index.js';
import { type DiagramSpec, diagramSpecOf, renderDiagram } from '../../src/pictures/diagram.js';
import { checkWellFormedXml } from '../support/xml.js';

const sq = (name: string) => parseSquare(name, STANDARD_BOARD);

/** Centre of a square on an 8 x 8 picture (48-unit squares, board at (24, 8)). */
function centre(name: string, black = false): { x: number; y: number } {
  const i = sq(name);
  const file = i % 8;
  const rank = (i - file) / 8;
  return { x: 24 + (black ? 7 - file : file) * 48 + 24, y: 8 + (black ? rank : 7 - rank) * 48 + 24 };
}

/** The centres of the rings drawn (each ring is two circles: its dark edge, its gold core). */
function rings(svg: string): { x: number; y: number }[] {
  const body = /<g class="hurdles"[^>]*>([\s\S]*?)<\/g>/.exec(svg)?.[1] ?? '';
  const circles = [...body.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)" stroke="(#[0-9a-f]+)"/g)];
  expect(circles.length % 2).toBe(0);
  const out: { x: number; y: number }[] = [];
  for (let i = 0; i < circles.length; i += 2) {
    const [edge, core] = [circles[i], circles[i + 1]];
    expect([core[1], core[2], core[3]]).toEqual([edge[1], edge[2], edge[3]]);
    expect(core[4]).not.toBe(edge[4]);
    out.push({ x: Number(edge[1]), y: Number(edge[2]) });
  }
  return out;
}

/** A result's picture with its smallest path (and its FEN's pieces), checked well-formed. */
function pictureOf(result: PathResult, options: { fen?: string; black?: boolean } = {}): string {
  const path = result.path?.squares.map(sq);
  const position = options.fen === undefined ? undefined : parseFen(options.fen, STANDARD_BOARD);
  const spec = diagramSpecOf(result, { path, position, ...(options.black ? { orientation: 'BLACK' as const } : {}) });
  const svg = renderDiagram(spec);
  expect(checkWellFormedXml(svg)).toBe('svg');
  return svg;
}

/** The hurdle of each move of the result's smallest path, as `hopHurdle` gives it. */
function hurdlesByMove(result: PathResult): string[] {
  const hops = readBetza(result.betza as string).hops;
  const passable = parseBitboard(result.mask, result.board);
  const squares = result.path?.squares ?? [];
  const out: string[] = [];
  for (let i = 1; i < squares.length; i++) {
    const h = hopHurdle(hops, 8, 8, passable, sq(squares[i - 1]), sq(squares[i]));
    out.push(h < 0 ? '-' : squareOf(h));
  }
  return out;
}

const squareOf = (index: number) => `${String.fromCharCode(97 + (index % 8))}${Math.floor(index / 8) + 1}`;

describe('a hopper path in the diagram', () => {
  it('rings the one square a cannon jumps on its only shortest path, and adds the legend row', () => {
    const query: PathQuery = { piece: 'FAIRY', betza: 'pR', from: ['a1'], to: ['a8'], blocked: ['a4'] };
    const result = solve(query);
    expect(result.path?.squares).toEqual(['a1', 'a8']);
    expect(result.pathCount).toBe(1n);
    expect(hurdlesByMove(result)).toEqual(['a4']);
    const svg = pictureOf(result);
    expect(rings(svg)).toEqual([centre('a4')]);
    expect(svg).toContain('>hurdle jumped</text>');
    // Drawn after the obstacles' hatching and the pieces, so nothing covers the ring.
    expect(svg.indexOf('<g class="hurdles"')).toBeGreaterThan(svg.indexOf('<g class="obstacles"'));
    expect(svg.indexOf('<g class="hurdles"')).toBeGreaterThan(svg.indexOf('<g class="pieces"'));
    expect(svg.indexOf('<g class="hurdles"')).toBeGreaterThan(svg.indexOf('<g class="path"'));
    // Seen from Black, the ring moves with its square.
    expect(rings(pictureOf(result, { black: true }))).toEqual([centre('a4', true)]);
    // Without the path, no ring and no legend row.
    const plain = renderDiagram(diagramSpecOf(result));
    expect(plain).not.toContain('class="hurdles"');
    expect(plain).not.toContain('hurdle jumped');
  });

  it("rings a grasshopper's hurdles, a FEN's piece among them, once each, in the path's order", () => {
    const fen = '8/8/8/8/3p4/8/8/8 w - - 0 1';
    const result = solve({ piece: 'FAIRY', betza: 'gQ', from: ['b2'], to: ['g5'], blocked: ['f5'], fen });
    // b2 over the pawn on d4 to e5, then over the blocked f5 to g5.
    expect(result.path?.squares).toEqual(['b2', 'e5', 'g5']);
    expect(hurdlesByMove(result)).toEqual(['d4', 'f5']);
    const spec = diagramSpecOf(result, { path: result.path?.squares.map(sq), position: parseFen(fen, STANDARD_BOARD) });
    expect(spec.hurdles).toEqual([sq('d4'), sq('f5')]);
    const svg = pictureOf(result, { fen });
    expect(rings(svg)).toEqual([centre('d4'), centre('f5')]);
    expect(svg).toContain('<g class="piece black pawn"');
    expect(svg.match(/hurdle jumped/g)).toHaveLength(1);
  });

  it('rings the landing a nightrider-hopper jumps, not the squares its leaps pass over', () => {
    const result = solve({ piece: 'FAIRY', betza: 'pNN', from: ['a1'], to: ['e3'], blocked: ['c2'] });
    expect(result.path?.squares).toEqual(['a1', 'e3']);
    expect(rings(pictureOf(result))).toEqual([centre('c2')]);
  });

  it('rings only the hopping moves of a compound: none for a path its rook part makes', () => {
    const open = solve({ piece: 'FAIRY', betza: 'RpR', from: ['a1'], to: ['h8'], blocked: ['a4'] });
    expect(open.distance).toBe(2);
    const hops = hurdlesByMove(open);
    const svg = pictureOf(open);
    expect(rings(svg)).toEqual(hops.filter((h) => h !== '-').map((h) => centre(h)));
    expect(svg.includes('hurdle jumped')).toBe(hops.some((h) => h !== '-'));
    const ride = solve({ piece: 'FAIRY', betza: 'RpR', from: ['a1'], to: ['a3'], blocked: ['a4'] });
    expect(ride.path?.squares).toEqual(['a1', 'a3']);
    expect(pictureOf(ride)).not.toContain('hurdle');
  });

  it('draws no ring for a piece that never hops, with the same obstacles and a path', () => {
    for (const query of [
      { piece: 'ROOK', from: ['a1'], to: ['a8'], blocked: ['a4'] },
      { piece: 'FAIRY', betza: 'NN', from: ['a1'], to: ['h8'], blocked: ['c2'] },
      { piece: 'FAIRY', betza: 'fNNbW', from: ['a1'], to: ['h8'], blocked: ['a4'] },
    ] as PathQuery[]) {
      const result = solve(query);
      expect(result.path).not.toBeNull();
      const spec = diagramSpecOf(result, { path: result.path?.squares.map(sq) });
      expect(spec).not.toHaveProperty('hurdles');
      const svg = renderDiagram(spec);
      expect(svg).toContain('<polyline ');
      expect(svg).not.toContain('hurdle');
    }
  });

  it('draws at most one ring a move, each square once, and none without a fairy piece', () => {
    const base: DiagramSpec = {
      board: STANDARD_BOARD,
      layers: [[sq('a1')], [sq('a8')], [sq('h8')]],
      sources: [sq('a1')],
      targets: [sq('h8')],
      obstacles: [sq('a4'), sq('c8'), sq('e8')],
      path: [sq('a1'), sq('a8'), sq('h8')],
      reachable: true,
      fairy: 'pR',
      hurdles: [sq('a4'), sq('a4'), sq('c8'), sq('e8')],
    };
    expect(rings(renderDiagram(base))).toEqual([centre('a4'), centre('c8')]);
    const { fairy: _, ...orthodox } = base;
    expect(renderDiagram(orthodox)).not.toContain('hurdle');
    expect(renderDiagram({ ...base, path: [sq('a1')] })).not.toContain('hurdle');
  });

  it('finds no hurdles for a text without p or g, or a path of one square', () => {
    // Every square passable but a2 (square 8, bit 8 of the first word).
    const passable = [~(1 << 8), -1];
    expect(pathHurdles('NN', STANDARD_BOARD, passable, [sq('a1'), sq('b3')])).toEqual([]);
    expect(pathHurdles('pR', STANDARD_BOARD, passable, [sq('a1')])).toEqual([]);
    expect(pathHurdles('pR', STANDARD_BOARD, passable, [sq('a1'), sq('a3')])).toEqual([sq('a2')]);
  });
});

describe('the length bound with hurdle rings', () => {
  it('holds for the worst case: one ring a move, at the widest coordinates of a 256 x 256 board', () => {
    const side = 256;
    const board = { files: side, ranks: side };
    const far = (i: number) => side * side - 1 - i;
    // A long path in the far corner, every move jumping a square of its own.
    const moves = 2000;
    const path = Array.from({ length: moves + 1 }, (_, i) => far(2 * i));
    const hurdles = Array.from({ length: moves }, (_, i) => far(2 * i + 1));
    const spec: DiagramSpec = {
      board,
      layers: [],
      sources: [path[0]],
      targets: [path[moves]],
      obstacles: hurdles,
      path,
      reachable: true,
      fairy: 'pNN',
      hurdles,
    };
    const svg = renderDiagram(spec);
    expect(rings(svg)).toHaveLength(moves);
    const counts = { board, layerSquares: 0, sources: 1, targets: 1, obstacles: moves, pieces: 0, attacked: 0 };
    const bound = diagramLengthBound({ ...counts, path: path.length, fairy: 3 });
    expect(svg.length).toBeLessThanOrEqual(bound);
    expect(svg.length).toBeLessThanOrEqual(
      diagramLengthBound({ ...counts, path: path.length, fairy: 3, hurdles: moves }),
    );
    // Without its rings the picture is shorter by at least a ring a move, which the bound counts.
    const bare = renderDiagram({ ...spec, hurdles: [] });
    expect(svg.length - bare.length).toBeGreaterThan(moves * 100);
    expect(diagramLengthBound({ ...counts, path: path.length, fairy: 3, hurdles: 0 })).toBeLessThan(bound);
  });

  it("holds for a real cannon's picture with a hurdle on every move", () => {
    // A diagonal of blocked squares: the cannon goes a1 h1 h8, over b1, then over h7.
    const blocked = ['b1', 'c2', 'd3', 'e4', 'f5', 'g6', 'h7'];
    const result = solve({ piece: 'FAIRY', betza: 'pR', from: ['a1'], to: ['h8'], blocked });
    expect(result.path?.squares).toEqual(['a1', 'h1', 'h8']);
    const path = result.path?.squares.map(sq) ?? [];
    const spec = diagramSpecOf(result, { path });
    expect(spec.hurdles).toEqual([sq('b1'), sq('h7')]);
    const svg = renderDiagram(spec);
    const bound = diagramLengthBound({
      board: result.board,
      layerSquares: result.layers.reduce((sum, layer) => sum + layer.count, 0),
      sources: 1,
      targets: 1,
      obstacles: blocked.length,
      pieces: 0,
      attacked: 0,
      path: path.length,
      fairy: 'pR'.length,
    });
    expect(svg.length).toBeLessThanOrEqual(bound);
  });
});
