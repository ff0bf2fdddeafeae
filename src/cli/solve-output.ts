/**
 * What `chess-paths solve` prints: the JSON shaped like the GraphQL `PathResult` (unchanged
 * whatever the terminal: it is for programs), or the text for a person, made piece by piece (a
 * few labelled lines, the listed paths, then the layer boards when the picture rule lets them be
 * drawn, or a line saying how to ask for them). Long work reports to the progress line.
 */
import { InputError, type PathConnection, type PathResult, renderAscii, type SquareSet } from '@chess-paths/engine';
import { drawBoards, measureBoards, measurePlain } from './boards.js';
import { choosePicture, formatBytes, layoutWidth, type PictureMode } from './picture.js';
import type { Progress } from './progress.js';
import type { Session } from './terminal.js';

/** How the text shows the picture (`--picture`/`--no-picture`, `--plain`, `--width`). */
export interface PictureRequest {
  picture: PictureMode;
  plain: boolean;
  width?: number;
}

/** Paths listed per call to the engine: small enough that the progress line moves between calls. */
const LIST_CHUNK = 50;

/**
 * The longest string V8 makes is about 2^29 characters; the plain picture is one string (it is
 * the API's `Overlay.ascii`), so a larger one is refused rather than failing while it is drawn.
 */
const MAX_PLAIN_BYTES = 2 ** 29 - 64;

/** A square set as the API shows it (no `indices`, which the schema does not have). */
function squareSetJson(set: SquareSet) {
  return { bitboard: set.bitboard, squares: set.squares, count: set.count };
}

/** The result as the API's `PathResult` would serialize it; bigints as decimal strings. */
export function resultJson(result: PathResult, page?: PathConnection): Record<string, unknown> {
  return {
    key: result.key,
    piece: result.piece,
    betza: result.betza,
    board: { files: result.board.files, ranks: result.board.ranks },
    mask: result.mask,
    sources: squareSetJson(result.sources),
    targets: squareSetJson(result.targets),
    reachable: result.reachable,
    distance: result.distance,
    layers: result.layers.map(squareSetJson),
    squares: squareSetJson(result.squares),
    pathCount: result.pathCount.toString(),
    path: result.path === null ? null : { squares: result.path.squares },
    distances: result.distances,
    ...(page
      ? {
          paths: {
            edges: page.edges.map((edge) => ({ cursor: edge.cursor, node: { squares: edge.node.squares } })),
            pageInfo: page.pageInfo,
            totalCount: page.totalCount.toString(),
          },
        }
      : {}),
    overlay: { ascii: renderAscii(result) },
  };
}

/**
 * The page of `first` paths after `after`, asked of the engine a chunk at a time so a long list
 * shows its progress; the same page as one call would give.
 */
export function listPaths(
  result: PathResult,
  first: number,
  after: string | undefined,
  progress: Progress,
): PathConnection {
  let page = result.paths({ first: Math.min(first, LIST_CHUNK), after: after ?? null });
  const edges = [...page.edges];
  while (edges.length < first && page.pageInfo.hasNextPage) {
    progress.update('listing paths', edges.length, first);
    page = result.paths({ first: Math.min(first - edges.length, LIST_CHUNK), after: page.pageInfo.endCursor });
    edges.push(...page.edges);
  }
  return { edges, pageInfo: page.pageInfo, totalCount: page.totalCount };
}

/**
 * The picture's part of the text: the boards, the plain picture, a note why it was left out, or
 * nothing. Decided now (a picture refused throws before any output), drawn as it is written.
 */
export function pictureText(request: PictureRequest, result: PathResult, session: Session): Iterable<string> {
  if (!result.reachable) return [];
  const { board } = result;
  const boards = result.layers.length;
  const width = layoutWidth(request.width, session.screen);
  const size = request.plain ? measurePlain(board, boards) : measureBoards(board, boards, width);
  const verdict = choosePicture(request.picture, size, session.screen, width);
  if (!verdict.draw) return verdict.note === undefined ? [] : [`\n${verdict.note}\n`];
  const { progress } = session;
  if (request.plain) {
    if (size.bytes > MAX_PLAIN_BYTES) {
      throw new InputError(
        ['--plain'],
        undefined,
        `would draw ${formatBytes(size.bytes)}, more than one string can hold; leave --plain out for the labelled boards`,
      );
    }
    // Drawn when it is written, after the head's lines are out.
    return (function* () {
      progress.update('drawing the picture');
      yield `\n${renderAscii(result)}\n`;
    })();
  }
  return (function* () {
    yield '\n';
    yield* drawBoards(result, width, (done, rows) => progress.update('drawing boards, row', done, rows));
  })();
}

/** The labelled lines and the listed paths, before the picture. */
export function headText(
  result: PathResult,
  request: { from: readonly string[]; to: readonly string[]; betza: boolean; after?: string },
  page?: PathConnection,
): string {
  // A piece asked by its Betza text is named with the canonical text (`--betza WF` is KING (K)).
  const named = request.betza ? `piece: ${result.piece} (${result.betza})\n` : '';
  if (!result.reachable)
    return `${named}unreachable: no path from ${request.from.join(',')} to ${request.to.join(',')}\n`;
  const lines = [
    `distance: ${result.distance}`,
    `path count: ${result.pathCount}`,
    `smallest path: ${result.path?.squares.join(' ')}`,
  ];
  if (page) {
    const where = request.after === undefined ? 'first' : 'next';
    lines.push('', `${where} ${page.edges.length} of ${result.pathCount} paths:`);
    for (const edge of page.edges) lines.push(`  ${edge.node.squares.join(' ')}`);
  }
  return `${named}${lines.join('\n')}\n`;
}
