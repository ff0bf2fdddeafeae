/**
 * Random legal games and PGN texts of them in every style the contract reads, for the tests that
 * read games back (the engine's round trip, and the service's pricing of a game by its moves):
 * games generated with chess.js from a seeded generator (biased toward castling, en passant and
 * promotions; some from a FEN in the middle of a game), written with or without move numbers,
 * `N...` after comments and variations, comments of both kinds, nested variations, NAGs and
 * marks, zeros for castling, promotions without `=`, check signs left out, pieces
 * over-disambiguated, `%` lines, CR LF line ends, and (the compact style) no white space at all
 * between tokens, each ended by an empty comment instead (`e4{}e5{}`).
 */
import { Chess, type Move } from 'chess.js';

/** A seeded generator (mulberry32): the same games on every run. */
export function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    chance: (p: number) => next() < p,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
  };
}
export type Random = ReturnType<typeof generator>;

/** A random game: its start FEN, its moves (chess.js's), its result. */
export interface RandomGame {
  startFen: string;
  moves: Move[];
  result: string;
}

/** A random game, its moves picked from chess.js's SAN lists (verbose lists cost far more). */
export function randomGame(random: Random): RandomGame {
  const chess = new Chess();
  // One game in five starts from a FEN reached after some random moves.
  if (random.chance(0.2)) {
    for (let i = random.int(40); i > 0; i--) chess.move(random.pick(chess.moves()));
    chess.load(chess.fen());
  }
  const startFen = chess.fen();
  const moves: Move[] = [];
  const length = random.int(121);
  while (moves.length < length) {
    const legal = chess.moves();
    if (legal.length === 0) break;
    const enPassant = chess.fen().split(' ')[3]; // chess.js names it when a capture is possible
    const special = legal.filter((san) => /=|^O-O/.test(san) || new RegExp(`^[a-h]x${enPassant}`).test(san));
    const pawns = legal.filter((san) => /^[a-h]|x/.test(san));
    const pool = special.length > 0 && random.chance(0.7) ? special : random.chance(0.5) ? pawns : legal;
    moves.push(chess.move(random.pick(pool.length > 0 ? pool : legal)));
  }
  const result = chess.isCheckmate() ? (chess.turn() === 'w' ? '0-1' : '1-0') : '*';
  return { startFen, moves, result: random.pick([result, result, '1/2-1/2', '*']) };
}

const COMMENTS = [
  '{ [%clk 0:03:00] }',
  '{A long comment that goes on, with (parentheses), a ; semicolon, a [bracket] and 1-0 in it,\nover two lines}',
  '; a comment to the end of the line ( with a parenthesis {\n',
  '{}',
];

/** How a game is written: drawn from the generator once a game. */
interface Style {
  numbers: 'none' | 'attached' | 'spaced';
  zeros: boolean;
  noEquals: boolean;
  /** Write the last move's promotion without its piece. */
  barePromotion?: boolean;
  /** No white space between tokens: each ends with an empty comment instead (`e4{}e5{}`). */
  compact?: boolean;
}

/** How the writer writes a move. */
function writeMove(move: Move, random: Random, style: Style, last: boolean): string {
  let san = move.san;
  if (random.chance(0.3)) san = san.replace(/[+#]$/, ''); // the reader adds check signs back
  if (style.zeros) san = san.replace(/O/g, '0');
  if (move.isPromotion() && style.noEquals) {
    san = san.replace(/=([QRBN])/, (_, p: string) => (random.chance(0.3) ? p.toLowerCase() : p));
  }
  if (last && style.barePromotion) san = san.replace(/=?[QRBNqrbn]([+#]?)$/, '$1');
  if (move.piece !== 'p' && move.piece !== 'k' && random.chance(0.05)) {
    // Over-disambiguated: the whole from-square, as PGN's import format allows.
    san = san.replace(/^([QRBN])[a-h]?[1-8]?(?=x?[a-h][1-8])/, `$1${move.from}`);
  }
  if (random.chance(0.1)) san += random.pick(['!', '?', '!?', '?!', '!!', '??']);
  return san;
}

/** A variation of a move: a real alternative to it, with its number, maybe a comment and a nested variation. */
function variation(before: string, random: Random, depth: number): string {
  const [, turn, , , , number] = before.split(' ');
  const alternative = random.pick(new Chess(before).moves());
  const inner = depth < 2 && random.chance(0.4) ? ` ${variation(before, random, depth + 1)}` : '';
  const comment = random.chance(0.4) ? ' {why not :) ?}' : '';
  return `(${number}${turn === 'w' ? '.' : '...'} ${alternative}${comment}${inner} $2 *)`;
}

/** Writes a game as PGN in a style drawn from `random` (`bare`: its last promotion without piece). */
export function writePgn(game: RandomGame, random: Random, bare = false): string {
  const style: Style = {
    numbers: random.pick(['none', 'attached', 'spaced'] as const),
    zeros: random.chance(0.3),
    noEquals: random.chance(0.5),
    barePromotion: bare,
    compact: random.chance(0.25),
  };
  const tags = [`[Event "Random \\"${random.int(1000)}\\" \\\\ test"]`, '[Site "?"]', `[Result "${game.result}"]`];
  if (game.startFen !== new Chess().fen()) tags.push('[SetUp "1"]', `[FEN "${game.startFen}"]`);
  const tokens: string[] = [];
  let interrupted = true; // a Black move after a comment or variation takes `N...`
  for (const [i, move] of game.moves.entries()) {
    const white = move.color === 'w';
    const spaced = style.numbers === 'spaced' && !style.compact;
    const number = `${move.before.split(' ')[5]}${white ? '.' : '...'}${spaced ? ' ' : ''}`;
    const numbered = style.numbers !== 'none' && (white || interrupted);
    tokens.push(`${numbered ? number : ''}${writeMove(move, random, style, i === game.moves.length - 1)}`);
    interrupted = false;
    if (random.chance(0.1)) tokens.push(`$${random.int(140)}`);
    // An alternative to the move just written, after it as PGN writes one.
    if (random.chance(0.05)) {
      tokens.push(variation(move.before, random, 0));
      interrupted = true;
    }
    if (random.chance(0.1)) {
      tokens.push(random.pick(COMMENTS));
      interrupted = true;
    }
  }
  tokens.push(game.result);
  // Lines of about 80 characters, now and then a % escape line between them.
  const lines = [''];
  for (const token of tokens) {
    if (lines[lines.length - 1].length > 79) lines.push(random.chance(0.1) ? '%escaped, not PGN\n' : '');
    // A token already ended by its own closing character needs nothing more, even when compact.
    const end = !style.compact ? ' ' : /[})\n]$/.test(token) ? '' : '{}';
    lines[lines.length - 1] += `${token}${end}`;
  }
  const eol = random.chance(0.5) ? '\r\n' : '\n';
  return `${tags.join(eol)}${eol}${eol}${lines.join('\n').replace(/\n/g, eol)}${eol}`;
}

/** chess.js's FEN after a move, with the en passant field the contract writes after every double step. */
export function contractFen(move: Move): string {
  if (!move.isBigPawn()) return move.after;
  const fields = move.after.split(' ');
  fields[3] = `${move.from[0]}${move.color === 'w' ? 3 : 6}`;
  return fields.join(' ');
}
