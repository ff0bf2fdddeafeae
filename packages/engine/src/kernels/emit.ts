/**
 * Emitting moves into a padded dense accumulator for the leapers' fill (`leapers.ts`,
 * `leap-groups.ts`): OR a word's moved squares into `out` and list the word in `touched` the
 * first time it turns non-zero, so a step costs in proportion to the frontier, never the board.
 * The arrays are padded with zero words, so an emit off the board needs no bounds check.
 */

/** ORs `v` into `out[j]`; lists `j` in `touched` when it turns non-zero. Returns the list's length. */
export function emit(out: Int32Array, touched: Int32Array, n: number, j: number, v: number): number {
  const o = out[j];
  out[j] = o | v;
  if (o === 0 && v !== 0) touched[n++] = j;
  return n;
}

/**
 * Emits `v` (squares of word `j`) moved up (`up` true) or down by `q` words and `t` bits, i.e.
 * by `32 q + t` squares.
 */
export function emitShifted(
  out: Int32Array,
  touched: Int32Array,
  n: number,
  j: number,
  v: number,
  q: number,
  t: number,
  up: boolean,
): number {
  if (t === 0) return emit(out, touched, n, up ? j + q : j - q, v);
  if (up) {
    n = emit(out, touched, n, j + q, v << t);
    return emit(out, touched, n, j + q + 1, v >>> (32 - t));
  }
  n = emit(out, touched, n, j - q, v >>> t);
  return emit(out, touched, n, j - q - 1, v << (32 - t));
}

/** Emits `v` at word `j` shifted one way and the other by `q` words and `t` bits. */
export function emitBothWays(
  out: Int32Array,
  touched: Int32Array,
  n: number,
  j: number,
  v: number,
  q: number,
  t: number,
): number {
  n = emitShifted(out, touched, n, j, v, q, t, true);
  return emitShifted(out, touched, n, j, v, q, t, false);
}
