/**
 * The command's texts: help for each command, the version, and the usage error that sends the
 * user to them. Kept apart from the commands so each help text is read in one place, next to the
 * others, and matches what src/cli/solve.ts and src/cli/main.ts accept.
 */
import { readFileSync } from 'node:fs';
import { DEFAULTS } from '../config.js';

/** Exit code of a command line that is not understood (unknown option, missing option). */
export const USAGE_EXIT = 2;

/**
 * A command line the command does not understand. Exits 2, as usage errors conventionally do, so
 * a script can tell "you called me wrong" (2) from "the question is wrong" (1).
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    /** The command whose help to point at (`solve`, `serve`), or undefined for the top level. */
    readonly command?: string,
  ) {
    super(message);
  }
}

/** The package's version, read from package.json (two levels up from both src/cli and dist/cli). */
export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** `chess-paths --help`. */
export const MAIN_HELP = `Usage: chess-paths <command> [options]

All shortest paths of chess pieces (Westcott's bitboard flood fill).

Commands:
  solve    answer one path question and print it (text or --json)
  game     read a PGN game: its moves and where each piece went, with its detours
  serve    start the GraphQL server, configured from the environment
  export   write every saved analysis (and --cache, the result cache) as JSON Lines
  import   read such a file into a database (SQLite or PostgreSQL), whole or not at all

Options:
  -h, --help       show this help (also: chess-paths <command> --help)
  -v, --version    print the version

Examples:
  chess-paths solve --piece king --from e4 --to a1,h8
  chess-paths solve --betza NN --from a1 --to h8
  chess-paths game game.pgn
  chess-paths export --out analyses.jsonl
`;

/** `chess-paths game --help`. */
export const GAME_HELP = `Usage: chess-paths game FILE [--json | --annotate]

Reads the games in PGN of FILE (or standard input with -), one at a time.

A file of one game prints its moves and how it ended, then every piece of the start position:
the squares it stood on, the move that captured it or its promotion, and its maneuvers. A
maneuver is a run of two or more of its moves while its side moved nothing else; it is said to
be the shortest way, a detour (a shorter way stayed open while it travelled), a way the
opponent closed (naming the move), or not compared (castling, a pawn's capture, waiting moves);
the moves that took or gave check are named. A move that is not legal is refused with its
number and side (3... Nf6).

A file of several games (a month of games, a tournament) prints a line a game (its players,
result, plies, maneuvers and detours by piece kind) and the whole file's count at the end; a
game that cannot be read is reported with its number and line, and the others are read. The file
is read a game at a time, in constant memory. While the work takes more than a second, a
progress line is shown on standard error if it is a terminal.

Options:
  --annotate   print each game back as PGN, with what its author wrote and its detours as
               comments with arrows ([%cal ...], [%csl ...]) that lichess, ChessBase and PGN
               viewers draw
  --json       print JSON with the GraphQL API's Game fields, each journey with its maneuvers
               (a line a game for a file of several)
  -h, --help   show this help

Exit status: 0 read, 1 a file or (for one game) a game that cannot be read (the message says
what and where) or output that could not be written, 2 command line not understood.

Examples:
  chess-paths game - < game.pgn
  chess-paths game month.pgn
  chess-paths game --annotate game.pgn > annotated.pgn
`;

/** `chess-paths solve --help`. */
export const SOLVE_HELP = `Usage: chess-paths solve (--piece PIECE | --betza TEXT) --from SQUARES --to SQUARES [options]

Prints the distance, the number of shortest paths, the lexicographically smallest path and one
board per step, its step written above it, rank numbers on the left and file letters under it:
* marks the squares at that step of at least one shortest path, S and T the sources and the
targets reached at that step (s and t on the other boards), # the impassable squares. A piece
given by --betza is printed first, as its canonical Betza text (piece: FAIRY (NN)).

Required:
  --piece PIECE      king, queen, rook, bishop, knight, white_pawn, black_pawn or fairy (any
                     case); may be left out with --betza
  --betza TEXT       a fairy piece in Betza notation (piece fairy): NN nightrider, RN
                     chancellor, nN Xiangqi horse, W3 a rook of at most 3 squares; at most ${DEFAULTS.MAX_BETZA_LENGTH}
                     characters (the subset: docs/path-semantics.md, Fairy pieces)
  --from SQUARES     source squares, comma-separated (e4 or e4,d4); may be repeated
  --to SQUARES       target squares, comma-separated; may be repeated

Options:
  --board FxR        board size, files x ranks, each 1 to 256 (default 8x8)
  --mask 0xHEX       passable squares, bit i = square i (default: every square)
  --blocked SQUARES  squares removed from the mask, comma-separated; may be repeated
  --fen FEN          a position whose pieces block, except on the from and to squares
  --paths N          also list the first N shortest paths in lexicographic order (N <= 1000)
  --after CURSOR     with --paths: start after this path (a cursor from --json output)
  --json             print JSON with the GraphQL API's field names (pathCount as a string);
                     unchanged by the picture options (--svg, --png still write their files)
  -h, --help         show this help

Picture:
  --picture          draw the boards whatever their size
  --no-picture       leave the boards out (and the line saying they were left out)
  --plain            draw the plain picture instead: the boards side by side, 1 on the
                     step's squares and . elsewhere, no coordinates (--json's overlay.ascii)
  --width N          lay the boards out in N columns (default: the terminal's width, else 80)
  --svg FILE         also write the picture as SVG, as the API draws it (GET /diagram.svg
                     with path=true): coordinates, obstacles, numbered steps, the smallest path
  --png FILE         also write that picture as PNG (as GET /diagram.png)
  --png-width PX     the PNG's width in pixels, 16 to 8192 (default 1200)

  By default the boards are drawn on a terminal when one board fits its width and the whole
  picture is at most 4 screens tall, and to a pipe or a file when it is at most 256 KiB;
  otherwise one line says the picture was left out and how to ask for it. While work takes
  more than a second, a progress line is shown on standard error if it is a terminal.

Exit status: 0 answered (an unreachable target is an answer), 1 bad input (the message names
the option and the value), a file that cannot be written, or output that could not be
written (a full disk, a closed pipe), 2 command line not understood.

Examples:
  chess-paths solve --piece king --from e4 --to a1,h8 --paths 3
  chess-paths solve --betza NN --from a1 --to h8      (the nightrider)
  chess-paths solve --piece knight --board 256x256 --from a1 --to iv256 --svg knight.svg
  chess-paths solve --piece king --from e4 --to a1,h8 --blocked d4,e5 --png king.png
`;

/** `chess-paths serve --help`. */
export const SERVE_HELP = `Usage: chess-paths serve

Starts the GraphQL server, exactly as \`npm start\` (node dist/server.js) does: the settings come
from the environment, and SIGTERM or SIGINT shut it down gracefully.

Common variables (all of them: docs/configuration.md):
  PORT           port to listen on (default 4000; 0 picks a free port)
  HOST           address to listen on (default 0.0.0.0)
  DATABASE_URL   file:./data/chess-paths.db (SQLite, the default) or postgresql://...
  LOG_LEVEL      pino log level (default info)

Options:
  -h, --help     show this help
`;

/** `chess-paths export --help`. */
export const EXPORT_HELP = `Usage: chess-paths export [--database URL] [--out FILE] [--cache]

Writes every saved analysis as JSON Lines: a header line, one line per analysis (id, title,
notes, FEN, PGN, queries, resultKeys, version, createdAt, updatedAt and editTokenHash, the
SHA-256 of its edit token: tokens are never stored, so never exported), then an end line
with the counts. The database is read in pages and the file written as it is read, so any
number of analyses takes the same memory. The format: docs/persistence.md.

Options:
  --database URL   the database to read (default DATABASE_URL, else ${DEFAULTS.DATABASE_URL}):
                   file:PATH (SQLite; the service must be stopped, it holds the file alone)
                   or postgresql://user:password@host:5432/db (replicas may keep running)
  --out FILE       write FILE (written as FILE.partial-PID, renamed when complete);
                   default standard output
  --cache          also the result cache's rows (layers as base64)
  -h, --help       show this help

Exit status: 0 exported, 1 a database that cannot be read or output that could not be
written (the message says why), 2 command line not understood.

Examples:
  chess-paths export --database file:./data/chess-paths.db --out analyses.jsonl
  chess-paths export --cache | gzip > backup.jsonl.gz
`;

/** `chess-paths import --help`. */
export const IMPORT_HELP = `Usage: chess-paths import [--database URL] [FILE | -]

Reads a file written by chess-paths export (FILE, or standard input with - or no FILE) into a
database: first brings the database's schema up to date (as the server does at start-up),
then checks the whole file, then writes it in one transaction, so it is imported whole or not
at all. Analyses keep their ids, versions, timestamps and edit-token hashes: edit tokens
given by the old database work on the new one. An analysis already in the database and equal
to the file's is left as it is, so importing a file twice changes nothing.

Refused, with the line named and nothing written: a line that is not JSON or is cut short, a
missing, unknown or mistyped field, an analysis over MAX_ANALYSIS_BYTES, all analyses over
ANALYSES_MAX_BYTES, an id already in the database with other content, a missing end line.

Options:
  --database URL   the database to write (default DATABASE_URL, else ${DEFAULTS.DATABASE_URL};
                   a SQLite file is created if needed, a PostgreSQL database must exist)
  -h, --help       show this help

Exit status: 0 imported, 1 a file or an analysis refused, or a database that cannot be used
(the message says why, and which line), 2 command line not understood.

Example:
  chess-paths import --database postgresql://chess_paths@db:5432/chess_paths analyses.jsonl
`;
