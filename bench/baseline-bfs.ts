/**
 * The benchmark's baseline: a plain queue BFS answering the same question as `solve` (distance
 * and layers) from the same `PathQuery` input. Forward BFS from the sources until the level
 * holding a target is complete, then a backward BFS from the reached targets over reverse moves
 * within the forward levels; L_k = squares with forward distance k and backward distance D - k.
 * Written the straightforward way (coordinates, a queue, distance arrays), as a developer
 * would without bitboards; it shares no code with the engine's search. A fairy piece (piece
 * FAIRY) takes its moves from the engine's Betza reader (`readBetza(text).rays`, the parsing
 * only) and walks them square by square: a move lands at j*(dx, dy), 1 <= j <= max, over
 * passable earlier landings and passable lame squares of every leap; backward, each leap is
 * walked the other way. Its hops (`readBetza(text).hops`) are walked square by square too: to
 * the first closed square (the hurdle), then beyond it; backward, every start from which the
 * forward walk lands on the square.
 */
import { type FairyRay, type HopRay, readBetza } from '@chess-paths/engine';

type Query = {
  piece: string;
  betza?: string | null;
  from: readonly string[];
  to: readonly string[];
  board?: { files: number; ranks: number } | null;
  mask?: string | null;
  blocked?: readonly string[] | null;
};

const JUMPS: Record<string, number[][]> = {
  KING: [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
    [1, 1],
    [1, -1],
    [-1, 1],
    [-1, -1],
  ],
  KNIGHT: [
    [1, 2],
    [2, 1],
    [2, -1],
    [1, -2],
    [-1, -2],
    [-2, -1],
    [-2, 1],
    [-1, 2],
  ],
};
const RAYS: Record<string, number[][]> = {
  ROOK: [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
  ],
  BISHOP: [
    [1, 1],
    [1, -1],
    [-1, 1],
    [-1, -1],
  ],
  QUEEN: [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
    [1, 1],
    [1, -1],
    [-1, 1],
    [-1, -1],
  ],
};

function parseName(name: string, files: number): number {
  const m = /^([a-z]+)(\d+)$/.exec(name.toLowerCase());
  if (!m) throw new Error(`bad square ${name}`);
  let file = 0;
  for (const c of m[1]) file = file * 26 + (c.charCodeAt(0) - 96);
  return (Number(m[2]) - 1) * files + (file - 1);
}

/**
 * A fairy piece's squares one move from `u` (or, with `back`, one move before `u`). Forward, a
 * ray's move of j leaps lands at u + j*(dx, dy) and needs every landing up to it and every
 * lame square of every leap passable; backward, the j-th leap back goes from c to c - (dx, dy)
 * and needs its lame squares, c - (dx, dy) + (px, py), and c - (dx, dy) itself passable.
 */
function fairyNeighbours(
  rays: readonly FairyRay[],
  files: number,
  ranks: number,
  open: Uint8Array,
  u: number,
  back: boolean,
  out: number[],
): void {
  out.length = 0;
  const f = u % files;
  const r = (u - f) / files;
  const inside = (x: number, y: number) => x >= 0 && x < files && y >= 0 && y < ranks;
  for (const { dx, dy, max, lame } of rays) {
    const sx = back ? -dx : dx;
    const sy = back ? -dy : dy;
    let x = f;
    let y = r;
    for (let j = 1; j <= max; j++) {
      // The leap from (x, y) to (x + sx, y + sy); its lame squares are offsets from where the
      // forward leap starts: (x, y) forward, (x + sx, y + sy) backward.
      const ox = back ? x + sx : x;
      const oy = back ? y + sy : y;
      let clear = true;
      for (const [px, py] of lame)
        if (!inside(ox + px, oy + py) || !open[(oy + py) * files + ox + px]) {
          clear = false;
          break;
        }
      x += sx;
      y += sy;
      if (!clear || !inside(x, y) || !open[y * files + x]) break;
      out.push(y * files + x);
    }
  }
}

/** A hopper's squares one hop from `u` (or, with `back`, one hop before `u`), appended to `out`. */
function hopNeighbours(
  hops: readonly HopRay[],
  files: number,
  ranks: number,
  open: Uint8Array,
  u: number,
  back: boolean,
  out: number[],
): void {
  const inside = (x: number, y: number) => x >= 0 && x < files && y >= 0 && y < ranks;
  const f = u % files;
  const r = (u - f) / files;
  for (const { dx, dy, hop } of hops) {
    if (!back) {
      let k = 1;
      while (inside(f + k * dx, r + k * dy) && open[(r + k * dy) * files + f + k * dx]) k++;
      if (!inside(f + k * dx, r + k * dy)) continue;
      for (let j = k + 1; inside(f + j * dx, r + j * dy) && open[(r + j * dy) * files + f + j * dx]; j++) {
        out.push((r + j * dy) * files + f + j * dx);
        if (hop === 'g') break;
      }
    } else {
      let k = 1;
      if (hop === 'p') while (inside(f - k * dx, r - k * dy) && open[(r - k * dy) * files + f - k * dx]) k++;
      if (!inside(f - k * dx, r - k * dy) || open[(r - k * dy) * files + f - k * dx]) continue;
      for (let j = k + 1; inside(f - j * dx, r - j * dy) && open[(r - j * dy) * files + f - j * dx]; j++)
        out.push((r - j * dy) * files + f - j * dx);
    }
  }
}

/** Squares one move from `u` (or, with `back`, one move before `u`). */
function neighbours(
  piece: string,
  files: number,
  ranks: number,
  open: Uint8Array,
  u: number,
  back: boolean,
  out: number[],
): void {
  out.length = 0;
  const f = u % files;
  const r = (u - f) / files;
  const inside = (x: number, y: number) => x >= 0 && x < files && y >= 0 && y < ranks;
  if (JUMPS[piece]) {
    for (const [dx, dy] of JUMPS[piece])
      if (inside(f + dx, r + dy) && open[(r + dy) * files + f + dx]) out.push((r + dy) * files + f + dx);
  } else if (RAYS[piece]) {
    for (const [dx, dy] of RAYS[piece]) {
      for (let x = f + dx, y = r + dy; inside(x, y) && open[y * files + x]; x += dx, y += dy) out.push(y * files + x);
    }
  } else {
    const dir = (piece === 'WHITE_PAWN' ? 1 : -1) * (back ? -1 : 1);
    const home = piece === 'WHITE_PAWN' ? 1 : ranks - 2;
    if (!inside(f, r + dir) || !open[(r + dir) * files + f]) return;
    out.push((r + dir) * files + f);
    const start = back ? home + 2 * (piece === 'WHITE_PAWN' ? 1 : -1) : home;
    if (r === start && inside(f, r + 2 * dir) && open[(r + 2 * dir) * files + f]) out.push((r + 2 * dir) * files + f);
  }
}

/** The board, passable squares, sources and targets of a query, and its piece's moves. */
function setUp(q: Query) {
  const files = q.board?.files ?? 8;
  const ranks = q.board?.ranks ?? 8;
  const n = files * ranks;
  const open = new Uint8Array(n).fill(1);
  if (q.mask != null) {
    const hex = q.mask.slice(2);
    for (let i = 0; i < n; i++) {
      const digit = hex.length - 1 - (i >> 2);
      open[i] = digit >= 0 && (parseInt(hex[digit], 16) >> (i & 3)) & 1 ? 1 : 0;
    }
  }
  for (const b of q.blocked ?? []) open[parseName(b, files)] = 0;
  const sources = q.from.map((s) => parseName(s, files)).filter((s) => open[s]);
  const isTarget = new Uint8Array(n);
  for (const t of q.to) if (open[parseName(t, files)]) isTarget[parseName(t, files)] = 1;
  const rays = q.piece === 'FAIRY' ? readBetza(q.betza ?? '').rays : null;
  const hops = q.piece === 'FAIRY' ? readBetza(q.betza ?? '').hops : [];
  /** Squares one move from `u` (with `back`, one move before it) into `out`. */
  const moves = (u: number, back: boolean, out: number[]) => {
    if (rays === null) neighbours(q.piece, files, ranks, open, u, back, out);
    else fairyNeighbours(rays, files, ranks, open, u, back, out);
    if (hops.length > 0) hopNeighbours(hops, files, ranks, open, u, back, out);
  };
  return { n, sources, isTarget, moves };
}

/** Every square's distance from the query's sources (-1: unreachable), the targets ignored. */
export function baselineDistances(q: Query): Int32Array {
  const { n, sources, moves } = setUp(q);
  const dist = new Int32Array(n).fill(-1);
  const queue = new Int32Array(n);
  let tail = 0;
  for (const s of sources)
    if (dist[s] < 0) {
      dist[s] = 0;
      queue[tail++] = s;
    }
  const nb: number[] = [];
  for (let head = 0; head < tail; head++) {
    const u = queue[head];
    moves(u, false, nb);
    for (const v of nb)
      if (dist[v] < 0) {
        dist[v] = dist[u] + 1;
        queue[tail++] = v;
      }
  }
  return dist;
}

/** Distance and layers (square index lists), or null when unreachable. */
export function baselineBfs(q: Query): { distance: number; layers: number[][] } | null {
  const { n, sources, isTarget, moves } = setUp(q);
  if (sources.length === 0) return null;
  const dist = new Int32Array(n).fill(-1);
  const queue = new Int32Array(n);
  let head = 0;
  let tail = 0;
  for (const s of sources)
    if (dist[s] < 0) {
      dist[s] = 0;
      queue[tail++] = s;
    }
  let found = -1;
  const nb: number[] = [];
  while (head < tail) {
    const u = queue[head++];
    if (found >= 0 && dist[u] > found) break;
    if (isTarget[u]) {
      found = dist[u];
      continue;
    }
    if (found >= 0) continue;
    moves(u, false, nb);
    for (const v of nb)
      if (dist[v] < 0) {
        dist[v] = dist[u] + 1;
        queue[tail++] = v;
      }
  }
  if (found < 0) return null;
  const back = new Int32Array(n).fill(-1);
  head = 0;
  tail = 0;
  for (let v = 0; v < n; v++)
    if (isTarget[v] && dist[v] === found) {
      back[v] = 0;
      queue[tail++] = v;
    }
  while (head < tail) {
    const u = queue[head++];
    if (back[u] === found) continue;
    moves(u, true, nb);
    for (const v of nb)
      if (back[v] < 0 && dist[v] === found - back[u] - 1) {
        back[v] = back[u] + 1;
        queue[tail++] = v;
      }
  }
  const layers: number[][] = Array.from({ length: found + 1 }, () => []);
  for (let v = 0; v < n; v++) if (dist[v] >= 0 && back[v] >= 0 && dist[v] + back[v] === found) layers[dist[v]].push(v);
  return { distance: found, layers };
}
