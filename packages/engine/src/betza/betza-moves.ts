/**
 * The moves of a fairy piece as the contract defines them, relative to the start square: a move
 * is its landing offset and the set of offsets it needs passable. A ray (one direction of one,
 * possibly lame, leap, repeated up to `max` times) makes one move per number of leaps j: landing
 * j*(dx, dy), needing every earlier landing and, when lame, every square each of its j leaps
 * passes over.
 *
 * Two pieces allow the same moves on every board of up to 256 x 256 exactly when their move sets
 * agree once each is made minimal (a move is redundant beside another with the same landing whose
 * needed set is a subset of its own): every offset of a move fits on a 256-square side, so a board
 * can always be made where one needed set is passable and the other is not. That is why
 * `MoveSet` answers `dominates`, the one question the canonical writer asks.
 *
 * A ray's needed sets are nested (move j + 1 needs what move j needs, and more), so a ray's moves
 * are kept as one `RayTrace`: its needed squares in the order its moves first need them, how many
 * of them each move needs, and for each square the first move that needs it. A needed set is then
 * a prefix of one list, and "move k of B needs no more than move j of A" is a pass over B's
 * prefix asking A when each square is first needed, resumed rather than restarted when j grows:
 * no set is ever copied or sorted (a queen's moves alone would be half a million numbers), and
 * checking every move of a ride is linear, not quadratic. Offsets are single numbers (`offsetKey`).
 */

/** One direction of one (possibly lame) leap, repeated: a move lands at j*(dx, dy), 1 <= j <= max. */
export interface FairyRay {
  /** File offset of one leap, +dx toward later files. */
  readonly dx: number;
  /** Rank offset of one leap, +dy toward higher ranks. */
  readonly dy: number;
  /** Leaps per move at most: 1 for a leaper; max * max(|dx|, |dy|) <= 255. */
  readonly max: number;
  /** Offsets one leap passes over that must be passable (empty when not lame). */
  readonly lame: readonly (readonly [number, number])[];
}

/**
 * The squares one lame leap (dx, dy) passes over, in order: ||dx| - |dy|| orthogonal steps along
 * the longer leg, then min(|dx|, |dy|) diagonal steps, the landing itself left out.
 */
export function lameSquares(dx: number, dy: number): [number, number][] {
  const sx = Math.sign(dx);
  const sy = Math.sign(dy);
  const ax = Math.abs(dx);
  const ay = Math.abs(dy);
  const squares: [number, number][] = [];
  let x = 0;
  let y = 0;
  for (let k = 0; k < Math.abs(ax - ay); k++) {
    if (ax > ay) x += sx;
    else y += sy;
    squares.push([x, y]);
  }
  for (let k = 0; k < Math.min(ax, ay); k++) {
    x += sx;
    y += sy;
    squares.push([x, y]);
  }
  squares.pop();
  return squares;
}

/** An offset (dx, dy), each in -255..255, as one number. */
function offsetKey(dx: number, dy: number): number {
  return (dx + 255) * 511 + (dy + 255);
}

/** The moves of one ray of 1, 2, ... leaps, traced as far as they have been asked for. */
export class RayTrace {
  /** `landings[j - 1]`: where the move of j leaps lands, as an offset key. */
  readonly landings: number[] = [];
  /** Needed squares, in the order the moves first need them. */
  private readonly squares: number[] = [];
  /** Move j needs `squares[0 .. needCounts[j - 1])`. */
  private readonly needCounts: number[] = [];
  /** For each needed square, the fewest leaps of a move that needs it. */
  private readonly firstNeeded = new Map<number, number>();

  constructor(readonly ray: FairyRay) {}

  /** How many moves are traced. */
  get length(): number {
    return this.landings.length;
  }

  /** Traces the moves up to `leaps` leaps (never beyond `ray.max`); returns whether it has them. */
  reach(leaps: number): boolean {
    const { dx, dy, max, lame } = this.ray;
    for (let j = this.length + 1; j <= Math.min(leaps, max); j++) {
      const x = (j - 1) * dx;
      const y = (j - 1) * dy;
      if (j > 1) this.need(offsetKey(x, y), j);
      for (const [px, py] of lame) this.need(offsetKey(x + px, y + py), j);
      this.landings.push(offsetKey(x + dx, y + dy));
      this.needCounts.push(this.squares.length);
    }
    return this.length >= leaps;
  }

  private need(square: number, leaps: number): void {
    if (this.firstNeeded.has(square)) return;
    this.firstNeeded.set(square, leaps);
    this.squares.push(square);
  }

  /**
   * Whether move `otherLeaps` of `other` needs nothing that move `leaps` of this ray does not.
   * Asked about one `other` with `leaps` never decreasing, it resumes where it stopped: a square
   * needed by this ray's move j is needed by every later move, so each of `other`'s squares is
   * looked up about once, and checking all of a ray's moves costs a pass, not a pass per move.
   */
  contains(leaps: number, other: RayTrace, otherLeaps: number): boolean {
    const count = other.needCounts[otherLeaps - 1];
    const progress = this.checked.get(other);
    let verified = progress !== undefined && progress.leaps <= leaps ? progress.verified : 0;
    while (verified < count) {
      const first = this.firstNeeded.get(other.squares[verified]);
      if (first === undefined || first > leaps) break;
      verified++;
    }
    this.checked.set(other, { leaps, verified });
    return verified >= count;
  }

  /** For `contains`: how many of another ray's squares this ray needs by the leaps last asked. */
  private readonly checked = new Map<RayTrace, { leaps: number; verified: number }>();
}

/** A move as a traced ray and its number of leaps. */
export interface TracedMove {
  readonly trace: RayTrace;
  readonly leaps: number;
}

/** The moves of a set of rays, by landing. */
export class MoveSet {
  private readonly byLanding = new Map<number, TracedMove[]>();

  /** Adds every move of `ray`. */
  addRay(ray: FairyRay): this {
    const trace = new RayTrace(ray);
    trace.reach(ray.max);
    trace.landings.forEach((landing, index) => {
      const list = this.byLanding.get(landing) ?? [];
      list.push({ trace, leaps: index + 1 });
      this.byLanding.set(landing, list);
    });
    return this;
  }

  /**
   * Whether some move has the landing of move `leaps` of `trace` and needs no more than it; cheap
   * when asked about one trace's moves in increasing leaps (`RayTrace.contains`).
   */
  dominates(trace: RayTrace, leaps: number): boolean {
    const list = this.byLanding.get(trace.landings[leaps - 1]);
    return list?.some((move) => trace.contains(leaps, move.trace, move.leaps)) ?? false;
  }
}
