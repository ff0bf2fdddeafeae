/**
 * A front end's page for test/server.clients.chessboard.test.ts, bundled for the browser: it asks
 * the API (on another origin, `?api=`) for a question's `overlay { shapes }` and draws them on
 * cm-chessboard (MIT), the arrows with its Arrows extension and the circles with its Markers, as
 * a chess front end would: a brush becomes an arrow or marker type, nothing else is translated.
 * What it asked and drew goes to `window.drawn`.
 */
import { Chessboard } from 'cm-chessboard/src/Chessboard.js';
import { ARROW_TYPE, Arrows } from 'cm-chessboard/src/extensions/arrows/Arrows.js';
import { MARKER_TYPE, Markers } from 'cm-chessboard/src/extensions/markers/Markers.js';

interface Shape {
  orig: string;
  dest: string | null;
  brush: string;
}

const api = new URL(location.href).searchParams.get('api') as string;
const QUESTION = `{ shortestPaths(query: { piece: KNIGHT, from: ["b1"], to: ["g8"], blocked: ["d2"] }) { path { squares } overlay { shapes { orig dest brush } } } }`;
const ARROW: Record<string, object> = { green: ARROW_TYPE.success };
const MARKER: Record<string, object> = {
  yellow: MARKER_TYPE.circlePrimary,
  red: MARKER_TYPE.circleDanger,
  blue: MARKER_TYPE.circle,
};

(window as unknown as { drawn: Promise<unknown> }).drawn = (async () => {
  const response = await fetch(api, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: QUESTION }),
  });
  const { data } = await response.json();
  const board = new Chessboard(document.getElementById('board'), {
    position: '8/8/8/8/8/8/8/1N6',
    assetsUrl: '/assets/',
    extensions: [{ class: Arrows }, { class: Markers, props: { autoMarkers: null } }],
  });
  await board.initialized;
  const shapes: Shape[] = data.shortestPaths.overlay.shapes;
  for (const shape of shapes) {
    if (shape.dest) board.addArrow(ARROW[shape.brush], shape.orig, shape.dest);
    else board.addMarker(MARKER[shape.brush], shape.orig);
  }
  return { path: data.shortestPaths.path.squares, shapes };
})();
