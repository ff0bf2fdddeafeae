/**
 * PGN written in every style the contract reads, then read back (`readGame`): 200 random legal
 * games of up to 120 plies, generated with chess.js from a seeded generator (biased toward
 * castling, en passant and promotions, so every game kind is there; some start from a FEN in
 * the middle of a game), each written out with or without move numbers, `N...` after comments
 * and variations, long comments of both kinds, nested variations, NAGs and marks, zeros for
 * castling, promotions without `=`, check signs left out, pieces over-disambiguated, `%` lines,
 * CR LF line ends. Reading it back must give chess.js's own SAN, UCI and positions after every
 * ply (with the contract's en passant field, set after every double step), the ply numbers and
 * the result: a writer's style must never change the game read. A promotion written without its
 * piece must be refused, naming the move.
 */
import { Chess, type Move } from 'chess.js';
import { describe, expect, it } from 'vitest';
import { readGame } from '../src/game.js';

/** A seeded generator (mulberry32): the same games on every run. */
function generator(seed: number) {
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
type Random = ReturnType<typeof generator>;

/** A random game: its start FEN, its moves (chess.js's), its result. */
interface RandomGame {
  startFen: string;
  moves: Move[];
  result: string;
}

/** A random game, its moves picked from chess.js's SAN lists (verbose lists cost far more). */
function randomGame(random: Random): RandomGame {
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

/** A variation before a move: a real alternative with its number, maybe a comment and a nested variation. */
function variation(before: string, random: Random, depth: number): string {
  const [, turn, , , , number] = before.split(' ');
  const alternative = random.pick(new Chess(before).moves());
  const inner = depth < 2 && random.chance(0.4) ? ` ${variation(before, random, depth + 1)}` : '';
  const comment = random.chance(0.4) ? ' {why not :) ?}' : '';
  return `(${number}${turn === 'w' ? '.' : '...'} ${alternative}${comment}${inner} $2 *)`;
}

/** Writes a game as PGN in a style drawn from `random` (`bare`: its last promotion without piece). */
function writePgn(game: RandomGame, random: Random, bare = false): string {
  const style: Style = {
    numbers: random.pick(['none', 'attached', 'spaced'] as const),
    zeros: random.chance(0.3),
    noEquals: random.chance(0.5),
    barePromotion: bare,
  };
  const tags = [`[Event "Random \\"${random.int(1000)}\\" \\\\ test"]`, '[Site "?"]', `[Result "${game.result}"]`];
  if (game.startFen !== new Chess().fen()) tags.push('[SetUp "1"]', `[FEN "${game.startFen}"]`);
  const tokens: string[] = [];
  let interrupted = true; // a Black move after a comment or variation takes `N...`
  for (const [i, move] of game.moves.entries()) {
    if (random.chance(0.05)) {
      tokens.push(variation(move.before, random, 0));
      interrupted = true;
    }
    const white = move.color === 'w';
    const number = `${move.before.split(' ')[5]}${white ? '.' : '...'}${style.numbers === 'spaced' ? ' ' : ''}`;
    const numbered = style.numbers !== 'none' && (white || interrupted);
    tokens.push(`${numbered ? number : ''}${writeMove(move, random, style, i === game.moves.length - 1)}`);
    interrupted = false;
    if (random.chance(0.1)) tokens.push(`$${random.int(140)}`);
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
    lines[lines.length - 1] += `${token} `;
  }
  const eol = random.chance(0.5) ? '\r\n' : '\n';
  return `${tags.join(eol)}${eol}${eol}${lines.join('\n').replace(/\n/g, eol)}${eol}`;
}

/** chess.js's FEN after a move, with the en passant field the contract writes after every double step. */
function contractFen(move: Move): string {
  if (!move.isBigPawn()) return move.after;
  const fields = move.after.split(' ');
  fields[3] = `${move.from[0]}${move.color === 'w' ? 3 : 6}`;
  return fields.join(' ');
}

describe('random games written in every style and read back', () => {
  const random = generator(20_260_611);
  const games = Array.from({ length: 200 }, () => randomGame(random));

  it('cover castling on both sides, en passant, promotions (under-promotions too) and games from a FEN', () => {
    const all = games.flatMap((g) => g.moves);
    expect(all.filter((m) => m.isKingsideCastle()).length).toBeGreaterThan(20);
    expect(all.filter((m) => m.isQueensideCastle()).length).toBeGreaterThan(20);
    expect(all.filter((m) => m.isEnPassant()).length).toBeGreaterThan(20);
    expect(all.filter((m) => m.isPromotion()).length).toBeGreaterThan(20);
    expect(all.filter((m) => m.isPromotion() && m.promotion !== 'q').length).toBeGreaterThan(10);
    expect(games.filter((g) => g.startFen !== new Chess().fen()).length).toBeGreaterThan(20);
    expect(games.filter((g) => g.moves.length > 100).length).toBeGreaterThan(20);
  });

  it("give chess.js's SAN, UCI and positions, the ply numbers and the result, whatever the style", () => {
    const written = games.map((game) => writePgn(game, random));
    // The writer really wrote every style, many times over.
    const styles: Record<string, RegExp> = {
      crlf: /\r\n/,
      zeros: /\b0-0/,
      promotionWithoutEquals: /[a-h][18][QRBNqrbn]/,
      promotionWithEquals: /[a-h][18]=[QRBN]/,
      attachedNumbers: /\s\d+\.[a-hKQRBN0O]/,
      spacedNumbers: /\s\d+\. [a-hKQRBN0O]/,
      blackNumberAfterComment: /[})]\s+\d+\.\.\. ?[a-hKQRBN0O]/,
      noNumbers: /\n\n[a-hKQRBN0O]/,
      nestedVariation: /\([^()]*\(/,
      lineComment: /;[^\n]*\n/,
      escapeLine: /\n%/,
      overDisambiguated: /[QRBN][a-h][1-8]x?[a-h][1-8]/,
      nag: /\s\$\d+/,
      mark: /[a-h][1-8][+#]?[!?]/,
    };
    for (const [name, style] of Object.entries(styles)) {
      expect(written.filter((pgn) => style.test(pgn)).length, name).toBeGreaterThan(5);
    }
    for (const [i, game] of games.entries()) {
      const pgn = written[i];
      let read: ReturnType<typeof readGame>;
      try {
        read = readGame(pgn);
      } catch (err) {
        throw new Error(`${(err as Error).message}\n${pgn}`);
      }
      const context = `game ${i}:\n${pgn}`;
      expect(read.startFen, context).toBe(game.startFen);
      expect(
        read.plies.map((p) => p.san),
        context,
      ).toEqual(game.moves.map((m) => m.san));
      expect(
        read.plies.map((p) => p.uci),
        context,
      ).toEqual(game.moves.map((m) => m.lan));
      expect(
        read.plies.map((p) => p.fen),
        context,
      ).toEqual(game.moves.map(contractFen));
      const [, turn, , , , fullmove] = game.startFen.split(' ');
      const first = (Number(fullmove) - 1) * 2 + (turn === 'w' ? 1 : 2);
      expect(
        read.plies.map((p) => p.number),
        context,
      ).toEqual(game.moves.map((_, k) => first + k));
      expect(read.result, context).toBe(game.result);
      expect(read.tags[0].value, context).toMatch(/^Random "\d+" \\ test$/);
    }
  });

  it('refuse every promotion written without its piece, naming the move', () => {
    let refused = 0;
    for (const game of games) {
      const at = game.moves.findIndex((m) => m.isPromotion());
      if (at < 0) continue;
      const { before, color, san } = game.moves[at];
      const name = `${before.split(' ')[5]}${color === 'w' ? '.' : '...'} ${san.replace(/=[QRBN][+#]?$/, '')}`;
      const pgn = writePgn({ ...game, moves: game.moves.slice(0, at + 1) }, random, true);
      expect(() => readGame(pgn), pgn).toThrow(
        new RegExp(
          `^pgn: ${name.replace(/\./g, '\\.')} reaches the last rank without saying what it promotes to \\(line \\d+, column \\d+\\)$`,
        ),
      );
      refused++;
    }
    expect(refused).toBeGreaterThan(20);
  });
});
