/**
 * Small typed arrays cut from a shared slab, as Node cuts its small `Buffer`s from a pool. V8
 * keeps a typed array of more than 64 bytes outside the heap: making one costs about 0.9 us
 * whatever its size up to a few kilobytes (its backing store is allocated and registered apart),
 * which was a tenth of a 64 x 64 knight solve for its problem's words and as much again for its
 * layers. A view into an existing buffer costs a twentieth of that. So arrays of up to
 * `SLAB_MAX_WORDS` words are views into an 8 kB slab, cut in turn (8-byte aligned); a slab full,
 * the next is made, and the old one lives on as long as a view into it does. The price is the
 * pool's: a kept small array may keep its whole slab (8 kB) alive, and a structured clone of it
 * copies the slab. Slab memory is never handed out twice, so every view starts zeroed.
 */

/** Bytes of a slab. */
const SLAB_BYTES = 8192;
/** Largest array cut from a slab, in 32-bit words (a quarter of it); larger ones are made apart. */
export const SLAB_MAX_WORDS = SLAB_BYTES / 16;

let slab = new ArrayBuffer(SLAB_BYTES);
let used = 0;

/** A zeroed `Int32Array` of `length` words: a view into the current slab when small, else its own. */
export function slabInt32(length: number): Int32Array {
  if (length > SLAB_MAX_WORDS) return new Int32Array(length);
  const bytes = (length * 4 + 7) & ~7;
  if (used + bytes > SLAB_BYTES) {
    slab = new ArrayBuffer(SLAB_BYTES);
    used = 0;
  }
  const view = new Int32Array(slab, used, length);
  used += bytes;
  return view;
}
