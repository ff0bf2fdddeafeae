/**
 * The link preview of a viewer page: the Open Graph and Twitter meta tags that chats, forums and
 * social sites read from the HTML of a shared link (`og:title`, `og:description`, `og:image`,
 * `og:url`, `twitter:card` = `summary_large_image`), for the question in the page's query string.
 * The image is the question's PNG diagram (`/diagram.png?...&path=true`, PNG_DEFAULT_WIDTH wide),
 * so a link to `/?piece=KNIGHT&from=b1&to=h8` shows that answer's board before anyone opens it.
 *
 * The query string is read as the viewer reads it (`src/viewer/state.ts`: `piece`, `board`,
 * `from`, `to`, `blocked`, `fen`, `avoid`, `betza`; lists lowercased, trimmed and deduplicated;
 * a board side outside 1..256 read as 8), which the tests check against the viewer's own code:
 * the viewer is a browser bundle, so the server does not import it. A page that asks no question,
 * an unfinished one (no source or no target) or one the diagram door would refuse
 * (`diagramQuestion`, which checks every parameter and limit without solving anything) previews
 * the seed example, a king from e4 to a1 and h8.
 *
 * Everything taken from the request goes into the page escaped for an HTML attribute, and its
 * URLs are built with `URLSearchParams`, so a hostile query string stays text. The absolute URLs
 * the tags need are made from the request's Host header (checked to be a host name or address
 * and a port) and, behind proxies of your own (TRUST_PROXY_HOPS), the scheme of the first
 * `X-Forwarded-Proto`; without a usable Host they are paths.
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Config } from '../config.js';
import { diagramQuestion } from './diagram-question.js';
import { DIAGRAM_PNG_PATH, PNG_DEFAULT_WIDTH } from './diagram-route.js';

/** The viewer's question keys: a query string with none of them asks nothing. */
const QUESTION_KEYS = ['piece', 'board', 'from', 'to', 'blocked', 'fen', 'avoid', 'betza'];
/** The pieces the viewer offers. */
const PIECES = ['KING', 'QUEEN', 'ROOK', 'BISHOP', 'KNIGHT', 'WHITE_PAWN', 'BLACK_PAWN', 'FAIRY'];
/** The engine's largest board side, which the viewer reads a side up to. */
const ENGINE_SIDE = 256;

/** What a preview says. */
export interface Preview {
  title: string;
  description: string;
  /** The diagram's query string, without `?`. */
  image: string;
}

/** The seed example's preview, for a page without a (usable) question. */
export const SEED_PREVIEW: Preview = {
  title: 'chess-paths: every shortest path of a chess piece',
  description:
    'A king from e4 to a1 and h8: each square numbered with its step and the smallest path drawn. Pick a piece, a board and squares, paste a FEN or a game, and share the link.',
  image: 'piece=KING&from=e4&to=a1,h8&path=true',
};

/** A comma list as the viewer reads it: trimmed, lowercased, without empty names or duplicates. */
function list(value: string | null): string[] {
  if (!value) return [];
  return [...new Set(value.split(',').map((s) => s.trim().toLowerCase()))].filter((s) => s !== '');
}

/** A board side as the viewer reads it: 8 unless a whole number from 1 to 256. */
function side(value: string | undefined): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= ENGINE_SIDE ? n : 8;
}

/** Squares for a title: at most eight, then `...`. */
function named(squares: string[]): string {
  return squares.length <= 8 ? squares.join(', ') : `${squares.slice(0, 8).join(', ')}, ...`;
}

/** At most `most` characters of `text`. */
function clip(text: string, most: number): string {
  return text.length <= most ? text : `${text.slice(0, most - 3)}...`;
}

/**
 * The preview of the question in `search` (a query string, with or without `?`); the seed's when
 * it asks none, is unfinished, or is one `/diagram.png` would refuse under `config`'s limits.
 */
export function previewOf(search: string, config: Config): Preview {
  const params = new URLSearchParams(search);
  if (!QUESTION_KEYS.some((key) => params.has(key))) return SEED_PREVIEW;
  const upper = (params.get('piece') ?? '').toUpperCase();
  const piece = PIECES.includes(upper) ? upper : 'KING';
  const [filesText, ranksText] = (params.get('board') ?? '8x8').toLowerCase().split('x');
  const files = side(filesText);
  const ranks = side(ranksText ?? filesText);
  const from = list(params.get('from'));
  const to = list(params.get('to'));
  const blocked = list(params.get('blocked'));
  const fen = (params.get('fen') ?? '').trim();
  const avoid = params.get('avoid') === '1';
  const betza = (params.get('betza') ?? '').trim();
  const fairy = piece === 'FAIRY' && fen === '';
  if (from.length === 0 || to.length === 0 || (fairy && betza === '')) return SEED_PREVIEW;

  const image = new URLSearchParams();
  if (fen !== '') image.set('fen', fen);
  else if (fairy) image.set('betza', betza);
  else image.set('piece', piece);
  if (files !== 8 || ranks !== 8) image.set('board', `${files}x${ranks}`);
  image.set('from', from.join(','));
  image.set('to', to.join(','));
  if (fen === '' && blocked.length > 0) image.set('blocked', blocked.join(','));
  if (fen !== '' && avoid) image.set('avoidAttacked', 'true');
  image.set('path', 'true');
  try {
    diagramQuestion(image, config, { path: DIAGRAM_PNG_PATH, own: [] });
  } catch {
    return SEED_PREVIEW;
  }

  const mover =
    fen !== ''
      ? `the piece on ${from[0]}`
      : fairy
        ? `the fairy piece ${clip(betza, 40)}`
        : `a ${piece.toLowerCase().replace('_', ' ')}`;
  const where = fen !== '' ? ' in a position' : files !== 8 || ranks !== 8 ? ` on a ${files} x ${ranks} board` : '';
  const avoiding = fen !== '' && avoid ? ', avoiding the attacked squares' : '';
  return {
    title: clip(`Shortest paths of ${mover} from ${named(from)} to ${named(to)}${where}${avoiding}`, 200),
    description: 'Every shortest path, each square numbered with its step and the smallest path drawn, by chess-paths.',
    image: image.toString().replace(/%2C/g, ','),
  };
}

/** Text made safe for an HTML attribute's value (in double quotes) or an element's content. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

/** A Host header that is a host name, an IPv4 or a bracketed IPv6 address, and an optional port. */
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})?)*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/** The origin links to this server are made with (`https://host:port`), or '' when unknown. */
export function originOf(req: IncomingMessage, trustProxyHops: number): string {
  const host = req.headers.host ?? '';
  if (host.length > 255 || !HOST.test(host)) return '';
  let scheme = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  const forwarded = req.headers['x-forwarded-proto'];
  if (trustProxyHops > 0 && forwarded) {
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded).split(',')[0].trim().toLowerCase();
    if (first === 'https' || first === 'http') scheme = first;
  }
  return `${scheme}://${host}`;
}

/**
 * The meta tags of `preview` for a page at `origin` + `pageSearch` (its query string as asked,
 * `?...` or ''), one a line, every value escaped.
 */
export function previewTags(preview: Preview, origin: string, pageSearch: string): string {
  const image = `${origin}${DIAGRAM_PNG_PATH}?${preview.image}`;
  const tags: [string, string, string][] = [
    ['name', 'description', preview.description],
    ['property', 'og:type', 'website'],
    ['property', 'og:site_name', 'chess-paths'],
    ['property', 'og:title', preview.title],
    ['property', 'og:description', preview.description],
    ['property', 'og:url', `${origin}/${pageSearch}`],
    ['property', 'og:image', image],
    ['property', 'og:image:type', 'image/png'],
    ['property', 'og:image:width', String(PNG_DEFAULT_WIDTH)],
    ['property', 'og:image:alt', preview.title],
    ['name', 'twitter:card', 'summary_large_image'],
    ['name', 'twitter:title', preview.title],
    ['name', 'twitter:description', preview.description],
    ['name', 'twitter:image', image],
    ['name', 'twitter:image:alt', preview.title],
  ];
  return tags.map(([key, name, value]) => `<meta ${key}="${name}" content="${escapeHtml(value)}">`).join('\n');
}
