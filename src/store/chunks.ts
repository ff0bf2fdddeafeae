/**
 * Bounded work per statement. better-sqlite3 is synchronous: every statement runs to its end on
 * the event loop, so the store never gives SQLite an unbounded amount of work at once. Large reads
 * and writes are cut into chunks bounded in rows AND bytes, and the event loop runs between two
 * chunks (`yieldToEventLoop`), so other requests, timers and I/O are served meanwhile.
 */

/** Lets every pending I/O callback and timer run before continuing (one `setImmediate` turn). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Cuts `items` into consecutive chunks of at most `maxItems` items and at most `maxBytes` bytes
 * (as `size` measures them); an item larger than `maxBytes` gets a chunk of its own.
 */
export function chunkBy<T>(items: readonly T[], maxItems: number, maxBytes: number, size: (item: T) => number): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const itemBytes = size(item);
    if (current.length > 0 && (current.length >= maxItems || bytes + itemBytes > maxBytes)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += itemBytes;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
