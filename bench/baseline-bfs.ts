/**
 * The benchmark's baseline: a plain queue BFS answering the same question as `solve` (distance
 * and layers) from the same `PathQuery` input. Forward BFS from the sources until the level
 * holding a target is complete, then a backward BFS from the reached targets over reverse moves
 * within the forward levels; L_k = squares with forward distance k and backward distance D - k.
 * Written the straightforward way (coordinates, a queue, distance arrays), as a developer
 * would without bitboards; it shares no code with the engine.
 */

type Query = {
  piece: string;
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

/** Distance and layers (square index lists), or null when unreachable. */
export function baselineBfs(q: Query): { distance: number; layers: number[][] } | null {
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
    neighbours(q.piece, files, ranks, open, u, false, nb);
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
    neighbours(q.piece, files, ranks, open, u, true, nb);
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
