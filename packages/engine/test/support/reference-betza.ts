/**
 * Independent reference for fairy pieces, written from the words of the contract's section
 * "Fairy pieces (Betza notation)" (/work/shared/docs/path-semantics.md) and sharing NO code with
 * the engine's source (src/): the engine's Betza module is judged against it, so it favours
 * being plainly right over being fast or clever.
 *
 * - `referenceParseBetza` reads a text term by term with one regular expression (modifiers, one
 *   upper-case letter, maybe the same letter again, maybe digits), checks each rule of the subset
 *   in turn, and lists one ride per kept leap. It throws a plain Error for anything outside the
 *   subset; it does not try to word its refusals like the engine.
 * - `referenceFairyMovesFrom` walks every ride from a square of a board, leap by leap and, for a
 *   lame leap, square by square along the path the contract describes, and lists the landings.
 * - `referenceFairyMoveKeys` walks the same rides from the origin of an unbounded plane (landings
 *   within 255 of it: no board is wider) and lists each move as its landing and the squares it
 *   needs passable, redundant moves dropped, as sorted strings a test can compare.
 * - `referenceFairySolve` is the plain two-way BFS of reference-bfs.ts for such a piece, with the
 *   same answer shape (`ReferenceAnswer`). Hoppers (`p`, `g`) are rides with a `hop`, walked by
 *   `walkHop` to their hurdle and beyond; reverse moves come from inverting the forward ones,
 *   since a fairy piece need not move the same way back (`fW`).
 */

import type { ReferenceAnswer, ReferenceTerrain } from './reference-bfs.js';

/** One ride: one direction of one leap, repeated up to `max` times (Infinity: no limit). */
export interface ReferenceRide {
  readonly dx: number;
  readonly dy: number;
  readonly max: number;
  readonly lame: boolean;
  /** `p` (cannon) or `g` (grasshopper) for a hopper's ride, else absent. */
  readonly hop?: 'p' | 'g';
}

/** The atoms, each a leap (x, y) with all its mirror images. */
const ATOMS: Record<string, [number, number]> = {
  W: [1, 0],
  F: [1, 1],
  D: [2, 0],
  N: [2, 1],
  A: [2, 2],
  H: [3, 0],
  C: [3, 1],
  Z: [3, 2],
  G: [3, 3],
};

/** The shorthands: `K` = `WF`, `R` = `WW`, `B` = `FF`, `Q` = `WWFF`. */
const SHORTHANDS: Record<string, { atoms: string[]; rides: boolean }> = {
  K: { atoms: ['W', 'F'], rides: false },
  R: { atoms: ['W'], rides: true },
  B: { atoms: ['F'], rides: true },
  Q: { atoms: ['W', 'F'], rides: true },
};

type Test = (x: number, y: number) => boolean;

/** `f`: y > 0; `b`: y < 0; `r`: x > 0; `l`: x < 0; `v`: |y| > |x|; `s`: |x| > |y|. */
const LETTER: Record<string, Test> = {
  f: (_x, y) => y > 0,
  b: (_x, y) => y < 0,
  r: (x, _y) => x > 0,
  l: (x, _y) => x < 0,
  v: (x, y) => Math.abs(y) > Math.abs(x),
  s: (x, y) => Math.abs(x) > Math.abs(y),
};

const both =
  (first: Test, second: Test): Test =>
  (x, y) =>
    first(x, y) && second(x, y);

/** The two-letter groups, each the intersection the contract lists. */
const GROUP: Record<string, Test> = {
  fl: both(LETTER.f, LETTER.l),
  fr: both(LETTER.f, LETTER.r),
  bl: both(LETTER.b, LETTER.l),
  br: both(LETTER.b, LETTER.r),
  ff: both(LETTER.f, LETTER.v),
  bb: both(LETTER.b, LETTER.v),
  fs: both(LETTER.f, LETTER.s),
  bs: both(LETTER.b, LETTER.s),
  rr: both(LETTER.r, LETTER.s),
  ll: both(LETTER.l, LETTER.s),
  rv: both(LETTER.r, LETTER.v),
  lv: both(LETTER.l, LETTER.v),
};

/** All mirror images of (x, y), each once. */
function mirrorImages(x: number, y: number): [number, number][] {
  const seen = new Map<string, [number, number]>();
  for (const [a, b] of [
    [x, y],
    [y, x],
  ]) {
    for (const sa of [1, -1]) for (const sb of [1, -1]) seen.set(`${sa * a},${sb * b}`, [sa * a, sb * b]);
  }
  return [...seen.values()].map(([a, b]) => [a + 0, b + 0]);
}

/** Which leaps a prefix's direction letters keep: read two at a time when they form a group. */
function keptByDirections(letters: string): Test {
  if (letters === '') return () => true;
  const tests: Test[] = [];
  let i = 0;
  while (i < letters.length) {
    const two = letters.slice(i, i + 2);
    if (two.length === 2 && Object.hasOwn(GROUP, two)) {
      tests.push(GROUP[two]);
      i += 2;
    } else {
      tests.push(LETTER[letters[i]]);
      i += 1;
    }
  }
  return (x, y) => tests.some((test) => test(x, y));
}

/** Reads a text of the subset into rides; throws an Error for anything outside the subset. */
export function referenceParseBetza(text: string): ReferenceRide[] {
  const term = /([a-z]*)([A-Z])(\2?)([0-9]*)/y;
  const rides: ReferenceRide[] = [];
  let position = 0;
  let atomsSeen = 0;
  while (position < text.length) {
    term.lastIndex = position;
    const match = term.exec(text);
    if (match === null) throw new Error(`unreadable at ${position + 1}`);
    position = term.lastIndex;
    const [, prefix, letter, doubled, digits] = match;
    if (/[^fbrlvsnmcpg]/.test(prefix)) throw new Error(`a modifier outside the subset in '${prefix}'`);
    const hops = prefix.replace(/[^pg]/g, '');
    if (hops.length > 1) throw new Error(`two hopper letters in '${prefix}'`);
    if (hops !== '' && prefix.includes('n')) throw new Error(`a lame hopper in '${prefix}'`);
    const shorthand = Object.hasOwn(SHORTHANDS, letter) ? SHORTHANDS[letter] : undefined;
    if (shorthand === undefined && !Object.hasOwn(ATOMS, letter)) throw new Error(`'${letter}' is no atom`);
    if (doubled !== '' && shorthand !== undefined) throw new Error(`doubled shorthand ${letter}`);
    if (digits !== '' && (doubled !== '' || letter === 'K')) throw new Error(`${letter}${doubled} takes no number`);
    if (digits !== '' && !/^(0|[1-9][0-9]*)$/.test(digits)) throw new Error(`leading zero in ${digits}`);
    if (digits !== '' && Number(digits) > 256) throw new Error(`${digits} is over 256`);

    let max = 1;
    if (doubled !== '' || digits === '0' || (shorthand?.rides && digits === '')) max = Number.POSITIVE_INFINITY;
    else if (digits !== '') max = Number(digits);
    // A hopper needs an unlimited rider with no number but 0 (`pR4` is refused, even when 4 is the board).
    if (hops !== '' && (max !== Number.POSITIVE_INFINITY || (digits !== '' && digits !== '0')))
      throw new Error(`a hopper before ${letter}${doubled}${digits}, no unlimited rider`);
    const keeps = keptByDirections(prefix.replace(/[nmcpg]/g, ''));
    for (const atom of shorthand?.atoms ?? [letter]) {
      const kept = mirrorImages(...ATOMS[atom]).filter(([x, y]) => keeps(x, y));
      if (kept.length === 0) throw new Error(`'${prefix}' keeps no leap of ${atom}`);
      atomsSeen += 1;
      if (prefix.includes('c')) continue;
      for (const [dx, dy] of kept)
        rides.push(
          hops === ''
            ? { dx, dy, max, lame: prefix.includes('n') }
            : { dx, dy, max, lame: false, hop: hops as 'p' | 'g' },
        );
    }
  }
  if (atomsSeen === 0) throw new Error('no atom');
  if (rides.length === 0) throw new Error('no move left');
  return rides;
}

/**
 * The squares one lame leap (dx, dy) passes over, relative to its start: ||dx| - |dy||
 * orthogonal steps along the longer leg, then min(|dx|, |dy|) diagonal steps; not the landing.
 */
export function referencePassedOver(dx: number, dy: number): [number, number][] {
  const longerIsX = Math.abs(dx) > Math.abs(dy);
  const orthogonal: [number, number] = longerIsX ? [Math.sign(dx), 0] : [0, Math.sign(dy)];
  const diagonal: [number, number] = [Math.sign(dx), Math.sign(dy)];
  const steps: [number, number][] = [];
  for (let k = 0; k < Math.abs(Math.abs(dx) - Math.abs(dy)); k++) steps.push(orthogonal);
  for (let k = 0; k < Math.min(Math.abs(dx), Math.abs(dy)); k++) steps.push(diagonal);
  const visited: [number, number][] = [];
  let x = 0;
  let y = 0;
  for (const [sx, sy] of steps) {
    x += sx;
    y += sy;
    visited.push([x, y]);
  }
  return visited.slice(0, -1);
}

/**
 * Walks one ride from (x, y): calls `land` at each landing and stops before the first leap that
 * lands on, or (lame) passes over, a square `open` refuses.
 */
function walkRide(
  ride: ReferenceRide,
  x: number,
  y: number,
  open: (x: number, y: number) => boolean,
  land: (x: number, y: number) => void,
): void {
  const passed = ride.lame ? referencePassedOver(ride.dx, ride.dy) : [];
  for (let leaps = 1; leaps <= ride.max; leaps++) {
    if (passed.some(([px, py]) => !open(x + px, y + py))) return;
    if (!open(x + ride.dx, y + ride.dy)) return;
    x += ride.dx;
    y += ride.dy;
    land(x, y);
  }
}

/**
 * Walks one hopper's ride from (x, y), from the contract's words: landings before the first one
 * that is on the board but not passable (the hurdle) are passed; none when the edge comes first.
 * Then `g` lands on the next landing if it is passable; `p` on each next landing while passable.
 */
function walkHop(
  ride: ReferenceRide,
  x: number,
  y: number,
  onBoard: (x: number, y: number) => boolean,
  open: (x: number, y: number) => boolean,
  land: (x: number, y: number) => void,
): void {
  let k = 1;
  while (onBoard(x + k * ride.dx, y + k * ride.dy) && open(x + k * ride.dx, y + k * ride.dy)) k++;
  if (!onBoard(x + k * ride.dx, y + k * ride.dy)) return;
  // Landing k is the hurdle.
  for (let j = k + 1; ; j++) {
    const [lx, ly] = [x + j * ride.dx, y + j * ride.dy];
    if (!onBoard(lx, ly) || !open(lx, ly)) return;
    land(lx, ly);
    if (ride.hop === 'g') return;
  }
}

/** Landing squares of the piece's legal moves from `from`, sorted, each once. */
export function referenceFairyMovesFrom(
  rides: readonly ReferenceRide[],
  terrain: ReferenceTerrain,
  from: number,
): number[] {
  const open = (f: number, r: number) =>
    f >= 0 && f < terrain.files && r >= 0 && r < terrain.ranks && terrain.passable[r * terrain.files + f];
  const onBoard = (f: number, r: number) => f >= 0 && f < terrain.files && r >= 0 && r < terrain.ranks;
  const landings = new Set<number>();
  for (const ride of rides) {
    if (ride.hop !== undefined) {
      const [x, y] = [from % terrain.files, Math.floor(from / terrain.files)];
      walkHop(ride, x, y, onBoard, open, (f, r) => landings.add(r * terrain.files + f));
      continue;
    }
    walkRide(ride, from % terrain.files, Math.floor(from / terrain.files), open, (f, r) =>
      landings.add(r * terrain.files + f),
    );
  }
  return [...landings].sort((a, b) => a - b);
}

/** One move on the plane: its landing, the squares it needs passable, and its text. */
interface PlaneMove {
  readonly landing: string;
  readonly needs: ReadonlySet<string>;
  readonly text: string;
}

/** Moves of each ride already walked (a test asks about the same few rides thousands of times). */
const planeMovesOfRide = new Map<string, PlaneMove[]>();

/** The moves of one ride on the plane, landings within 255 of the start (no board is wider). */
function planeMoves(ride: ReferenceRide): PlaneMove[] {
  const key = `${ride.dx},${ride.dy},${ride.max},${ride.lame}`;
  const known = planeMovesOfRide.get(key);
  if (known !== undefined) return known;
  const moves: PlaneMove[] = [];
  const needs = new Set<string>();
  const passed = ride.lame ? referencePassedOver(ride.dx, ride.dy) : [];
  const onPlane = (x: number, y: number) => Math.abs(x) <= 255 && Math.abs(y) <= 255;
  walkRide(ride, 0, 0, onPlane, (x, y) => {
    // The move needs the squares this leap passed over and every earlier landing.
    const [fromX, fromY] = [x - ride.dx, y - ride.dy];
    for (const [px, py] of passed) needs.add(`${fromX + px},${fromY + py}`);
    if (fromX !== 0 || fromY !== 0) needs.add(`${fromX},${fromY}`);
    const landing = `${x},${y}`;
    moves.push({ landing, needs: new Set(needs), text: `${landing}:${[...needs].sort().join(';')}` });
  });
  planeMovesOfRide.set(key, moves);
  return moves;
}

/**
 * The piece's moves on the plane, relative to the start: each as `x,y:` and then the squares it
 * needs passable (`x,y` joined by `;`, sorted), every move with a landing within 255 of the start,
 * a move dropped when another with the same landing needs a subset of its squares. Sorted.
 */
export function referenceFairyMoveKeys(rides: readonly ReferenceRide[]): string[] {
  const byLanding = new Map<string, PlaneMove[]>();
  // Hoppers' moves depend on hurdles, not on a set of squares left passable: not listed here.
  for (const ride of rides.filter(({ hop }) => hop === undefined)) {
    for (const move of planeMoves(ride)) {
      const list = byLanding.get(move.landing) ?? [];
      list.push(move);
      byLanding.set(move.landing, list);
    }
  }
  const inside = (a: PlaneMove, b: PlaneMove) => [...a.needs].every((square) => b.needs.has(square));
  const keys = new Set<string>();
  for (const moves of byLanding.values()) {
    for (const move of moves) {
      // Redundant when another move needs fewer squares (of the same squares twice, one stays).
      if (!moves.some((other) => other.text !== move.text && inside(other, move))) keys.add(move.text);
    }
  }
  return [...keys].sort();
}

/** One fairy question in reference terms: the Betza text instead of a piece. */
export interface ReferenceFairyProblem {
  readonly betza: string;
  readonly files: number;
  readonly ranks: number;
  readonly passable: readonly boolean[];
  readonly sources: readonly number[];
  readonly targets: readonly number[];
}

/** Plain multi-source BFS over an adjacency list; -1 where not reached. */
function distancesFrom(starts: readonly number[], next: readonly (readonly number[])[]): number[] {
  const distance = new Array<number>(next.length).fill(-1);
  let frontier = [...starts];
  for (const start of starts) distance[start] = 0;
  for (let level = 1; frontier.length > 0; level++) {
    const reached: number[] = [];
    for (const square of frontier) {
      for (const neighbour of next[square]) {
        if (distance[neighbour] === -1) {
          distance[neighbour] = level;
          reached.push(neighbour);
        }
      }
    }
    frontier = reached;
  }
  return distance;
}

/** Solves one fairy question from the definitions, as `referenceSolve` does for the orthodox pieces. */
export function referenceFairySolve(problem: ReferenceFairyProblem): ReferenceAnswer {
  const rides = referenceParseBetza(problem.betza);
  const { files, ranks, passable } = problem;
  const terrain: ReferenceTerrain = { files, ranks, passable };
  const count = files * ranks;
  const forward = Array.from({ length: count }, (_, square) =>
    passable[square] ? referenceFairyMovesFrom(rides, terrain, square) : [],
  );
  const backward: number[][] = Array.from({ length: count }, () => []);
  forward.forEach((landings, square) => {
    for (const landing of landings) backward[landing].push(square);
  });
  const sortedOnce = (squares: readonly number[]) =>
    [...new Set(squares.filter((square) => passable[square]))].sort((a, b) => a - b);
  const sources = sortedOnce(problem.sources);
  const targets = sortedOnce(problem.targets);
  const fromSources = distancesFrom(sources, forward);
  const distances = fromSources.map((d) => (d === -1 ? null : d));
  const reachedTargets = targets.filter((target) => fromSources[target] !== -1);
  const none: ReferenceAnswer = {
    sources,
    targets,
    reachable: false,
    distance: null,
    layers: [],
    squares: [],
    pathCount: 0n,
    path: null,
    distances,
    enumeratePaths: function* () {},
    firstPaths: () => [],
  };
  if (reachedTargets.length === 0) return none;
  const shortest = Math.min(...reachedTargets.map((target) => fromSources[target]));

  const toTargets = distancesFrom(targets, backward);
  const layers: number[][] = Array.from({ length: shortest + 1 }, () => []);
  const stepOf = new Array<number>(count).fill(-1);
  for (let square = 0; square < count; square++) {
    const k = fromSources[square];
    if (k !== -1 && k <= shortest && toTargets[square] === shortest - k) {
      layers[k].push(square);
      stepOf[square] = k;
    }
  }
  const successors = (square: number) => forward[square].filter((next) => stepOf[next] === stepOf[square] + 1);
  const ways = new Map<number, bigint>();
  for (const square of layers[shortest]) ways.set(square, 1n);
  for (let k = shortest - 1; k >= 0; k--) {
    for (const square of layers[k])
      ways.set(
        square,
        successors(square).reduce((sum, next) => sum + (ways.get(next) ?? 0n), 0n),
      );
  }
  const path = [layers[0][0]];
  for (let k = 1; k <= shortest; k++) path.push(successors(path[k - 1])[0]);

  function* enumeratePaths(): Generator<number[]> {
    const prefix: number[] = [];
    function* extend(square: number): Generator<number[]> {
      prefix.push(square);
      if (prefix.length === shortest + 1) yield [...prefix];
      else for (const next of successors(square)) yield* extend(next);
      prefix.pop();
    }
    for (const start of layers[0]) yield* extend(start);
  }
  return {
    sources,
    targets,
    reachable: true,
    distance: shortest,
    layers,
    squares: layers.flat().sort((a, b) => a - b),
    pathCount: layers[0].reduce((sum, square) => sum + (ways.get(square) ?? 0n), 0n),
    path,
    distances,
    enumeratePaths,
    firstPaths: (limit: number) => {
      const out: number[][] = [];
      for (const found of enumeratePaths()) {
        if (out.length >= limit) break;
        out.push(found);
      }
      return out;
    },
  };
}
