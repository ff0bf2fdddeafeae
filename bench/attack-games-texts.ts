/**
 * The PGN texts of the games door of `npm run bench:attack` (bench/attack-games.ts): a legal long
 * game from seeded random moves, that game in other spellings the reader accepts (comments with
 * no space, `1...`, NAGs, variations), and texts that fill MAX_PGN_BYTES: tag pairs before a short
 * game, or a long game padded with comments. Sizes are held to a JSON budget, so that 4 of them
 * and their query fit in one MAX_BODY_BYTES body as variables (a `"` of a tag pair and a line end
 * take two characters there).
 */
import { Chess } from 'chess.js';
import { body } from './attack-queries.js';
import { seededRandom } from './rng.js';

/** The server's default MAX_PGN_BYTES and MAX_BODY_BYTES. */
export const MAX_PGN_BYTES = 262_144;
export const MAX_BODY_BYTES = 1_048_576;
/** JSON characters of one text when 4 share a body, with 2 KiB left for the query and the keys. */
export const TEXT_JSON_BUDGET = Math.floor((MAX_BODY_BYTES - 2048) / 4);

/**
 * A legal game of `plies` half-moves from seeded random moves that avoid ending the game early;
 * with `keep`, moves from or to that square too (its piece stays there unless no other move is left).
 */
export function longGame(plies: number, seed: number, keep?: string): string {
  const rand = seededRandom(seed);
  const chess = new Chess();
  for (let i = 0; i < plies; i++) {
    const moves = chess.moves({ verbose: true });
    // A move that would end the game (mate, stalemate, a draw by rule) is avoided while others exist.
    const lasting = moves.filter((m) => {
      chess.move(m.san);
      const over = chess.isGameOver();
      chess.undo();
      return !over;
    });
    const keeps = (m: { from: string; to: string }) => m.from !== keep && m.to !== keep;
    // Past the fifty-move rule every move ends the game: then any move that keeps the piece.
    const pool = [lasting.filter(keeps), lasting, moves.filter(keeps), moves].find((p) => p.length > 0);
    if (!pool) break;
    chess.move(pool[Math.floor(rand() * pool.length)].san);
  }
  return chess.pgn({ maxWidth: 80 });
}

/** A 1,000-ply game takes chess.js some seconds to make: each is made once per run. */
const made = new Map<string, LongGame>();

export interface LongGame {
  /** As chess.js writes it: seven tag pairs, numbered moves, lines of 80. */
  pgn: string;
  sans: string[];
  /** The square with a piece on it in the most positions after a move, and in how many. */
  busiest: { square: string; positions: number };
}

export function longGameOf(plies: number, seed: number, keep?: string): LongGame {
  const key = `${plies}/${seed}/${keep}`;
  let game = made.get(key);
  if (!game) {
    const pgn = longGame(plies, seed, keep);
    const replay = new Chess();
    replay.loadPgn(pgn);
    const sans = replay.history();
    const occupied = new Map<string, number>();
    const board = new Chess();
    for (const san of sans) {
      board.move(san);
      for (const row of board.board())
        for (const cell of row) if (cell) occupied.set(cell.square, (occupied.get(cell.square) ?? 0) + 1);
    }
    const [square, positions] = [...occupied].sort((a, b) => b[1] - a[1])[0];
    game = { pgn, sans, busiest: { square, positions } };
    made.set(key, game);
  }
  return game;
}

/** The move numbers' text of ply `i` (0-based): `1.` for White's, `1...` for Black's. */
const numberOf = (i: number) => `${Math.floor(i / 2) + 1}${i % 2 === 0 ? '.' : '...'}`;

/**
 * The game in a spelling, after a leading comment `{lead}`:
 * - usual: as chess.js writes it (tag pairs, `1. g4 c6 2. h4`);
 * - compact: no move numbers, no space, an empty comment after every move (`g4{}c6{}h4{}`);
 * - mixed: every move numbered and attached, an empty comment and a NAG after it, then an empty
 *   comment or (every tenth move) a variation (`1.g4{}$1{}1...c6{}$2{}...5...e6{}$4(5...a6)6.h4`).
 */
export function spelled(game: LongGame, spelling: 'usual' | 'compact' | 'mixed', lead: string): string {
  if (spelling === 'usual') return `{${lead}}\n${game.pgn}`;
  if (spelling === 'compact') return `{${lead}}${game.sans.join('{}')}{}*`;
  const moves = game.sans.map(
    (san, i) => `${numberOf(i)}${san}{}$${1 + (i % 6)}${i % 10 === 9 ? `(${numberOf(i)}a6)` : '{}'}`,
  );
  return `{${lead}}${moves.join('')}*`;
}

/** JSON characters of a text inside a body (without its quotes). */
const jsonChars = (text: string) => JSON.stringify(text).length - 2;

/** A short legal game ending a text of tag pairs. */
const SHORT_GAME = '\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *\n';

/**
 * A text of tag pairs (`[Tag1 "..."]`, one a line, values of 24 characters) filling `budget`
 * JSON characters, then a short legal game; the first pair, `[Attack "<id>"]`, makes it distinct.
 */
export function tagHeavy(id: string, budget = TEXT_JSON_BUDGET): { text: string; tags: number } {
  const lines = [`[Attack "${id}"]\n`];
  let used = jsonChars(lines[0]) + jsonChars(SHORT_GAME);
  for (let n = 1; ; n++) {
    const line = `[Tag${n} "${n.toString(36).padStart(24, 'v')}"]\n`;
    const cost = jsonChars(line);
    if (used + cost > budget) break;
    lines.push(line);
    used += cost;
  }
  return { text: lines.join('') + SHORT_GAME, tags: lines.length };
}

/**
 * The long game (chess.js's spelling, `{id}` first) with a comment of letters after every move,
 * as long as fills `budget` JSON characters (and stays under MAX_PGN_BYTES).
 */
export function commentHeavy(game: LongGame, id: string, budget = TEXT_JSON_BUDGET): string {
  const lead = `{${id}}\n`;
  const tail = ' *\n';
  // A move costs its number (White's), its SAN, a space and `{}` and a space around its comment.
  const bare = game.sans.reduce((n, san, i) => n + (i % 2 === 0 ? numberOf(i).length + 1 : 0) + san.length + 4, 0);
  const room = Math.min(budget, MAX_PGN_BYTES - 64) - jsonChars(lead) - jsonChars(tail) - bare;
  const each = Math.max(0, Math.floor(room / game.sans.length));
  const pad = 'c'.repeat(each);
  const moves = game.sans.map((san, i) => `${i % 2 === 0 ? `${numberOf(i)} ` : ''}${san} {${pad}} `);
  return lead + moves.join('') + tail;
}

/** A body of `texts.length` aliased `game(pgn: $p<i>)`, each selecting `fields`. */
export function aliasedGames(texts: string[], fields: string): string {
  const params = texts.map((_, i) => `$p${i}: String!`).join(', ');
  const selections = texts.map((_, i) => `g${i}: game(pgn: $p${i}) { ${fields} }`).join(' ');
  return body(`query(${params}) { ${selections} }`, Object.fromEntries(texts.map((t, i) => [`p${i}`, t])));
}

/** Sizes of texts and bodies for ctx.notes: UTF-8 bytes, least and most. */
export function sizes(texts: string[], bodies: string[] = []) {
  const bytes = texts.map((t) => Buffer.byteLength(t));
  const bodyBytes = bodies.map((b) => Buffer.byteLength(b));
  return {
    texts: texts.length,
    textBytes: { min: Math.min(...bytes), max: Math.max(...bytes) },
    ...(bodies.length > 0 && { bodies: bodies.length, bodyBytesMax: Math.max(...bodyBytes) }),
  };
}
