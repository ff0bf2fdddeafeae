/**
 * Turning a response into JSON text without holding the event loop. `JSON.stringify` of a
 * multi-megabyte answer (a batch of long layer lists, a page of long paths) takes tens to
 * hundreds of milliseconds in one piece. A response the request's output account marks as large
 * (`markLarge`, from the plugin that sees the request) is therefore written piece by piece: the
 * walk descends through objects and lists of objects and hands each small part (an object or list
 * of plain values, such as one layer or one path) to the native `JSON.stringify`, letting the
 * event loop run about every `SLICE_MS`. The parts of each slice are joined before it ends, so
 * the last step joins a few hundred strings, not the hundreds of thousands of parts a long layer
 * list makes. The text is identical to `JSON.stringify`'s. Every other response takes the native
 * call directly.
 */
import { SLICE_MS } from '../work/engine-budget.js';
import { nextTurn } from '../work/turns.js';

/** The `data` objects of responses to write in slices. */
const large = new WeakSet<object>();

/** Marks a response (by its `data` object) as large. */
export function markLarge(data: object): void {
  large.add(data);
}

/** True for a value that has no object or list of objects below it (one native call writes it). */
function isFlat(value: object): boolean {
  if (Array.isArray(value)) return value.length === 0 || typeof value[0] !== 'object' || value[0] === null;
  for (const key in value) {
    const inner = (value as Record<string, unknown>)[key];
    if (typeof inner === 'object' && inner !== null && !(Array.isArray(inner) && isFlat(inner))) return false;
  }
  return true;
}

/** A list or object being written: the next child to write. */
type Frame = { list: unknown[]; next: number } | { object: Record<string, unknown>; keys: string[]; next: number };

/** Apollo's `stringifyResult`: large responses in slices, the rest at once. */
export async function stringifyResult(value: { data?: unknown }): Promise<string> {
  const data = value.data;
  if (typeof data !== 'object' || data === null || !large.has(data)) return JSON.stringify(value);
  /** The text of the slices written so far, and the parts of the current one. */
  const slices: string[] = [];
  const parts: string[] = [];
  const stack: Frame[] = [];
  /** Writes a flat value at once, or opens a frame for it. */
  const open = (node: unknown): void => {
    if (typeof node !== 'object' || node === null || isFlat(node)) parts.push(JSON.stringify(node) ?? 'null');
    else if (Array.isArray(node)) {
      parts.push('[');
      stack.push({ list: node, next: 0 });
    } else {
      parts.push('{');
      const object = node as Record<string, unknown>;
      stack.push({
        object,
        keys: Object.keys(object).filter((k) => object[k] !== undefined && typeof object[k] !== 'function'),
        next: 0,
      });
    }
  };
  open(value);
  let sliceStart = performance.now();
  let steps = 0;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if ('list' in frame) {
      if (frame.next === frame.list.length) {
        parts.push(']');
        stack.pop();
      } else {
        if (frame.next > 0) parts.push(',');
        open(frame.list[frame.next++] ?? null);
      }
    } else if (frame.next === frame.keys.length) {
      parts.push('}');
      stack.pop();
    } else {
      const key = frame.keys[frame.next++];
      parts.push(`${frame.next > 1 ? ',' : ''}${JSON.stringify(key)}:`);
      open(frame.object[key]);
    }
    if (++steps % 512 === 0 && performance.now() - sliceStart >= SLICE_MS) {
      slices.push(parts.join(''));
      parts.length = 0;
      await nextTurn();
      sliceStart = performance.now();
    }
  }
  slices.push(parts.join(''));
  return slices.join('');
}
