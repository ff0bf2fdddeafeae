/**
 * `Overlay`: a result's pictures, drawn from its layers on demand. A picture's size is known
 * before it is drawn (exactly for ASCII, as a bound for SVG), so one that could not be sent is
 * refused before any drawing (`RESPONSE_TOO_LARGE`); a small one is drawn on this thread, on the
 * request's engine budget, a large one on the worker pool like every other heavy field. The SVG
 * of an answer that came with a position (a question with a FEN, `Position.paths`) draws its
 * pieces and, when it avoided them, the attacked squares; it is drawn for that answer alone,
 * since the result is shared with questions that have no position. The plain pictures are kept
 * with their result for the next time when small.
 */

import { type DrawShape, overlayShapes, type PathResult, renderAscii, shapesToPgnComment } from '@chess-paths/engine';
import type { Context } from '../../request/context.js';
import { positionDiagramOf } from '../../request/position-diagrams.js';
import { lazyField } from '../../work/fields.js';
import { drawSvg, isPlainSvg, type SvgOptions, svgLengthBound } from '../../work/pictures.js';
import type { OverlayResolvers } from '../generated/resolvers.js';
import { paced } from './paths.js';

/** Longest picture kept with its result for the next time (longer ones are drawn every time). */
const MAX_KEPT_PICTURE = 64 * 1024;
const asciiDrawn = new WeakMap<PathResult, string>();
const svgDrawn = new WeakMap<PathResult, string>();

/** Characters of the ASCII picture of a result, known before drawing it. */
function asciiLength(result: PathResult): number {
  const { files, ranks } = result.board;
  const layers = result.distance === null ? 0 : result.distance + 1;
  return layers === 0 ? 0 : ranks * (layers * (2 * files - 1) + 3 * (layers - 1) + 1);
}

/**
 * A picture's size in the answer: JSON escapes every `"` of an SVG (two an element), about a
 * tenth more than its characters; ASCII has no quotes, and a picture route sends its SVG as it is.
 */
function answerBytes(ctx: Context, kind: 'ascii' | 'svg', characters: number): number {
  return (kind === 'svg' && ctx.output.json ? Math.ceil(characters * 1.1) : characters) + 4;
}

/**
 * One picture: kept, or sized and its share of the answer held before it is drawn (so sibling
 * pictures of one request cannot all be drawn and then refused), then drawn here when small and
 * on the pool when large; its real size is charged once drawn.
 */
function picture(ctx: Context, result: PathResult, kind: 'ascii' | 'svg', options: SvgOptions = {}) {
  const plain = kind === 'ascii' || isPlainSvg(options);
  const drawn = kind === 'ascii' ? asciiDrawn : svgDrawn;
  const kept = plain ? drawn.get(result) : undefined;
  if (kept !== undefined) return ctx.output.pass(kept, answerBytes(ctx, kind, kept.length));
  // Draw nothing that could not be sent.
  const held = answerBytes(ctx, kind, kind === 'ascii' ? asciiLength(result) : svgLengthBound(result, options));
  ctx.output.reserve(held);
  let drawing: string | Promise<string>;
  try {
    drawing = lazyField(ctx, { result, field: kind, ...(kind === 'svg' ? { svg: options } : {}) }, () => {
      const text = kind === 'ascii' ? renderAscii(result) : drawSvg(result, options);
      if (plain && text.length <= MAX_KEPT_PICTURE) drawn.set(result, text);
      return text;
    });
  } catch (err) {
    ctx.output.release(held);
    throw err;
  }
  if (drawing instanceof Promise) drawing = drawing.finally(() => ctx.output.release(held));
  else ctx.output.release(held);
  return paced(
    ctx,
    drawing,
    (p) => p.length,
    (p) => ctx.output.pass(p, answerBytes(ctx, kind, p.length)),
  );
}

/** JSON bytes of one shape at most (`{"orig":"aa10","dest":"ab11","brush":"yellow","label":{"text":"1000"}},`). */
const SHAPE_BYTES = 80;

/**
 * The shapes of a result (and, for the PGN comment, their commands): their count is at most the
 * path's moves plus the squares drawn, known before they are made, so a drawing that could not be
 * sent is refused first; then made on the request's engine budget, paced, and charged.
 */
function shapes(
  ctx: Context,
  result: PathResult,
  layers: boolean,
  labels: boolean,
): DrawShape[] | Promise<DrawShape[]> {
  const drawn = result.sources.count + result.targets.count + (layers ? result.squares.count : 0);
  const bound = (result.distance ?? 0) + drawn;
  ctx.output.check(bound * SHAPE_BYTES);
  return paced(
    ctx,
    ctx.budget.lazy(() => overlayShapes(result, { layers, labels })),
    (list) => list.length * SHAPE_BYTES,
    (list) => list,
  );
}

/** `Overlay` pictures and shapes (engine time: budgeted; size: charged to the answer). */
export const overlay: OverlayResolvers = {
  ascii: (result: PathResult, _args, ctx) => picture(ctx, result, 'ascii'),
  svg: (result: PathResult, { orientation, path }, ctx, info) => {
    const noted = positionDiagramOf(ctx.positionDiagrams, info);
    const options: SvgOptions = {};
    if (noted) options.fen = noted.fen;
    if (noted?.mover !== undefined) options.mover = noted.mover;
    if (orientation === 'BLACK') options.orientation = 'BLACK';
    if (path) options.path = true;
    return picture(ctx, result, 'svg', options);
  },
  shapes: (result: PathResult, { layers, labels }, ctx) => {
    const answer = (list: DrawShape[]) =>
      ctx.output.pass(
        list.map((shape) => ({
          orig: shape.orig,
          dest: shape.dest ?? null,
          brush: shape.brush,
          label: shape.label ?? null,
        })),
        list.length * SHAPE_BYTES,
      );
    const list = shapes(ctx, result, layers ?? true, labels ?? true);
    return list instanceof Promise ? list.then(answer) : answer(list);
  },
  pgn: (result: PathResult, { layers }, ctx) => {
    const comment = (list: DrawShape[]) => {
      const text = shapesToPgnComment(list);
      return ctx.output.pass(text, text.length + 4);
    };
    const list = shapes(ctx, result, layers ?? true, false);
    return list instanceof Promise ? list.then(comment) : comment(list);
  },
  // The same drawing as `ascii` (kept, budgeted and charged the same), cut into lines; each line
  // costs its quotes and comma on top.
  asciiLines: (result: PathResult, _args, ctx) => {
    const lines = (text: string) => {
      if (text === '') return [];
      ctx.output.pass(null, 3 * result.board.ranks);
      return text.split('\n');
    };
    const text = picture(ctx, result, 'ascii');
    return text instanceof Promise ? text.then(lines) : lines(text);
  },
};
