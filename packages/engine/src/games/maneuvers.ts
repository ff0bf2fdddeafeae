/**
 * A piece's maneuvers: what a player means by one trip, not its whole journey. A maneuver is a
 * run of two or more moves of one piece while its side moved nothing else (a knight's
 * b1-d2-f1-g3 while the rest of the army waits); a run ends when its side moves another piece,
 * and at a promotion (the piece moves as another role after it). Captures and checks end nothing
 * by themselves; they are named.
 *
 * A maneuver is compared with the shortest way in legs: a piece it takes is where it meant to go,
 * so each capture ends a leg (Rxd4 then Rd1 is two legs of one move, not a round trip of two).
 * Each leg is compared with the shortest path between its ends on the board at its start (the
 * other pieces block). When that is shorter than the moves the leg took, the question is whether
 * the shorter way stayed open while the piece travelled, since the opponent moved meanwhile: the
 * way is solved again with every square occupied at any point of the leg blocking (and for a
 * king, every square attacked: a king's way is open only where it is safe). A DETOUR had a
 * shorter way open throughout; CLOSED, a shorter way the opponent closed, naming the move that
 * did; SHORTEST took the shortest way. A castling, a pawn's capture, a capture of a piece that
 * came to its square during the leg, or a leg back to where it began (waiting moves) is no path
 * question: NOT_COMPARED. A maneuver is a DETOUR when
 * one of its legs is, else CLOSED when one is, else SHORTEST when one leg was compared. A king's
 * maneuver is also compared with the shortest way around the squares the other side attacked at
 * its start (the king walks of the blocked pawn endings Westcott's routine was written for).
 */
import { type ParsedPosition, parseFen } from '../board/fen.js';
import { parseSquare, squareName } from '../board/squares.js';
import { solve } from '../core/solve.js';
import type { Color, OrthodoxMover, Role } from '../types.js';
import type { Game, GameJourney, GamePly } from './game.js';
import { attackedSquares } from './position.js';

/** How a maneuver, or a leg of it, compares with the shortest path. */
export type ManeuverVerdict = 'SHORTEST' | 'DETOUR' | 'CLOSED' | 'NOT_COMPARED';

/** A leg of a maneuver: up to and including a capture, or to its end. */
export interface ManeuverLeg {
  /** Where the piece stood at the leg's start, then after each of its moves. */
  squares: string[];
  /** The ply number of each of its moves. */
  plies: number[];
  verdict: ManeuverVerdict;
  /** Why it is NOT_COMPARED, else null. */
  notCompared: string | null;
  /** The shortest distance between its ends on the board at its start (null when not compared). */
  shortest: number | null;
  /** A shortest path on that board (the lexicographically smallest). */
  shortestPath: string[] | null;
  /** The shortest distance with every square occupied (for a king, or attacked) during the leg blocking. */
  openDistance: number | null;
  /** For a DETOUR, a shorter way that stayed open throughout. */
  openPath: string[] | null;
  /** For CLOSED, the opponent's move that closed the last shorter way. */
  closedBy: { ply: number; san: string } | null;
}

/** One maneuver of a piece. */
export interface Maneuver {
  /** Its moves within the journey, 1-based, first to last. */
  first: number;
  last: number;
  /** The ply number of each of its moves. */
  plies: number[];
  /** Where the piece stood before its first move, then after each move. */
  squares: string[];
  /** The role it moved as. */
  role: Role;
  verdict: ManeuverVerdict;
  /** Moves it took beyond its legs' shortest ways (0 when SHORTEST; null when a leg is not compared). */
  extraMoves: number | null;
  legs: ManeuverLeg[];
  /** Plies of its moves that captured, and that gave check. */
  captures: number[];
  checks: number[];
  /** A king's maneuver: the way around the squares the other side attacked at its start. */
  kingWalk: KingWalk | null;
}

/** A king's maneuver against the squares the other side attacked at its start. */
export interface KingWalk {
  /** The shortest distance avoiding them (null when they wall the target off). */
  safeDistance: number | null;
  safePath: string[] | null;
  /** Squares of its walk (after its start) that were attacked at the start. */
  attackedOnWalk: string[];
}

const BOARD = { files: 8, ranks: 8 };

function mover(role: Role, color: Color): OrthodoxMover {
  if (role === 'PAWN') return color === 'WHITE' ? 'WHITE_PAWN' : 'BLACK_PAWN';
  return role;
}

/** The FEN of the position before ply `ply` of the game. */
function fenBefore(game: Game, ply: number): string {
  const index = ply - (game.plies[0]?.number ?? ply);
  return index === 0 ? game.startFen : game.plies[index - 1].fen;
}

/** The runs of a journey: spans of its moves with no move of another piece of its side between. */
function runsOf(journey: GameJourney): [number, number][] {
  const runs: [number, number][] = [];
  let start = 0;
  for (let i = 1; i <= journey.plies.length; i++) {
    const broken =
      i === journey.plies.length || journey.plies[i] !== journey.plies[i - 1] + 2 || journey.promotedAtMove === i; // the move that promoted ends its run
    if (broken) {
      runs.push([start, i - 1]);
      start = i;
    }
  }
  return runs.filter(([a, b]) => b > a);
}

/** The maneuvers of a journey, in order. */
export function journeyManeuvers(game: Game, journey: GameJourney): Maneuver[] {
  const first = game.plies[0]?.number ?? 1;
  const plyOf = (ply: number): GamePly => game.plies[ply - first];
  return runsOf(journey).map(([a, b]) => {
    const plies = journey.plies.slice(a, b + 1);
    const squares = journey.squares.slice(a, b + 2);
    const promoted = journey.promotedAtMove !== null && a + 1 > journey.promotedAtMove;
    const role = promoted ? (journey.promotedTo as Role) : journey.role;
    const moves = plies.map(plyOf);
    // A capture's SAN says so (`x`), en passant included.
    const captured = moves.map((m) => m.san.includes('x'));
    const legs: ManeuverLeg[] = [];
    for (let start = 0, i = 0; i < moves.length; i++) {
      if (!captured[i] && i < moves.length - 1) continue;
      const leg = {
        role,
        color: journey.color,
        squares: squares.slice(start, i + 2),
        moves: moves.slice(start, i + 1),
      };
      legs.push(compareLeg(game, leg, captured[i]));
      start = i + 1;
    }
    const compared = legs.filter((l) => l.verdict !== 'NOT_COMPARED');
    const verdict: ManeuverVerdict = legs.some((l) => l.verdict === 'DETOUR')
      ? 'DETOUR'
      : legs.some((l) => l.verdict === 'CLOSED')
        ? 'CLOSED'
        : compared.length > 0
          ? 'SHORTEST'
          : 'NOT_COMPARED';
    const extraMoves =
      compared.length === legs.length ? legs.reduce((n, l) => n + (l.plies.length - (l.shortest ?? 0)), 0) : null;
    return {
      first: a + 1,
      last: b + 1,
      plies,
      squares,
      role,
      verdict,
      extraMoves,
      legs,
      captures: moves.filter((_, i) => captured[i]).map((m) => m.number),
      checks: moves.filter((m) => /[+#]$/.test(m.san)).map((m) => m.number),
      kingWalk:
        role === 'KING' && !moves.some((m) => m.san.startsWith('O-O'))
          ? kingWalk(squares, parseFen(fenBefore(game, plies[0])))
          : null,
    };
  });
}

/** A leg to compare: the piece, its squares and its moves. */
interface Leg {
  role: Role;
  color: Color;
  squares: string[];
  moves: GamePly[];
}

/** A leg's comparison with the shortest way (`capture`: its last move takes a piece). */
function compareLeg(game: Game, leg: Leg, capture: boolean): ManeuverLeg {
  const { role, color, squares, moves } = leg;
  const from = squares[0];
  const to = squares[squares.length - 1];
  const took = moves.length;
  const king = role === 'KING';
  const result: ManeuverLeg = {
    squares,
    plies: moves.map((m) => m.number),
    verdict: 'NOT_COMPARED',
    notCompared: null,
    shortest: null,
    shortestPath: null,
    openDistance: null,
    openPath: null,
    closedBy: null,
  };
  if (moves.some((m) => m.san.startsWith('O-O'))) return { ...result, notCompared: 'castling' };
  if (role === 'PAWN' && capture) return { ...result, notCompared: "a pawn's capture" };
  // Back where it began: waiting moves (a king passing the move), not a way anywhere.
  if (from === to) return { ...result, notCompared: 'it came back to where it began (waiting moves)' };
  const positions = moves.map((m) => parseFen(fenBefore(game, m.number)));
  const target = parseSquare(to, BOARD);
  if (capture && !positions[0].pieces.some((p) => p.index === target)) {
    return { ...result, notCompared: `the piece it took came to ${to} during the maneuver` };
  }
  // Its own squares (the target too: it gets there, taking what stands there) never block it.
  const own = new Set(squares.map((s) => parseSquare(s, BOARD)));
  const other: Color = color === 'WHITE' ? 'BLACK' : 'WHITE';
  /** Squares no way may use over the first `count` positions: occupied, and for a king attacked. */
  const blockedBy = (count: number, attacks = king): string[] => {
    const blocked = new Set<number>();
    for (const [k, position] of positions.slice(0, count).entries()) {
      for (const piece of position.pieces) blocked.add(piece.index);
      if (attacks) {
        const attacked = attackedSquares(position, other, parseSquare(squares[k], BOARD));
        for (let i = 0; i < 64; i++) if ((attacked[i >>> 5] >>> (i & 31)) & 1) blocked.add(i);
      }
    }
    return [...blocked].filter((i) => !own.has(i)).map((i) => squareName(i, BOARD));
  };
  const way = (blocked: string[]) =>
    solve({ piece: mover(role, color), board: BOARD, from: [from], to: [to], blocked });
  const atStart = way(blockedBy(1, false));
  const shortest = atStart.distance;
  const compared = { ...result, shortest, shortestPath: atStart.path?.squares ?? null };
  if (shortest === null) return { ...result, notCompared: 'no path between its ends on the board at its start' };
  // A king's way is open only where it is not attacked: one that went around attacked squares
  // took the shortest way it had.
  const firstWay = king ? way(blockedBy(1)).distance : shortest;
  if (firstWay === null || firstWay >= took) return { ...compared, verdict: 'SHORTEST', openDistance: firstWay };
  const open = way(blockedBy(positions.length));
  if (open.distance !== null && open.distance < took) {
    return { ...compared, verdict: 'DETOUR', openDistance: open.distance, openPath: open.path?.squares ?? null };
  }
  // The first position whose pieces, added to those before, leave no shorter way: the opponent's
  // move just before it closed the way.
  let closer = positions.length - 1;
  for (let k = 2; k <= positions.length; k++) {
    const d = way(blockedBy(k)).distance;
    if (d === null || d >= took) {
      closer = k - 1;
      break;
    }
  }
  const closing = game.plies[moves[closer].number - 1 - (game.plies[0]?.number ?? 1)];
  return {
    ...compared,
    verdict: 'CLOSED',
    openDistance: open.distance,
    closedBy: closing ? { ply: closing.number, san: closing.san } : null,
  };
}

/** A king's maneuver against the squares the other side attacked at its start (the other pieces blocking too). */
function kingWalk(squares: string[], start: ParsedPosition): KingWalk {
  const from = parseSquare(squares[0], BOARD);
  const to = squares[squares.length - 1];
  const color = start.pieces.find((p) => p.index === from)?.color ?? 'WHITE';
  const attacked = attackedSquares(start, color === 'WHITE' ? 'BLACK' : 'WHITE', from);
  const isAttacked = (i: number) => ((attacked[i >>> 5] >>> (i & 31)) & 1) === 1;
  // Its walk's own squares stay open (the pieces it took there were in its way by design).
  const walk = new Set(squares);
  const blocked: string[] = [];
  for (let i = 0; i < 64; i++) {
    const name = squareName(i, BOARD);
    if (!walk.has(name) && (start.pieces.some((p) => p.index === i) || isAttacked(i))) blocked.push(name);
  }
  const safe = solve({ piece: 'KING', board: BOARD, from: [squares[0]], to: [to], blocked });
  return {
    safeDistance: safe.distance,
    safePath: safe.path?.squares ?? null,
    attackedOnWalk: squares.slice(1).filter((s) => isAttacked(parseSquare(s, BOARD))),
  };
}
