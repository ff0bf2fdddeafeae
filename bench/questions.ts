/**
 * What the HTTP benchmarks (`bench/http.ts`, `bench/load.ts`, `bench/compare.ts`) share: 8 x 8
 * questions, their texts, and a free port.
 */
import { createServer } from 'node:net';
import { STANDARD_BOARD, squareName } from '@chess-paths/engine';

/** Name of an 8 x 8 square index. */
export const square = (i: number): string => squareName(i, STANDARD_BOARD);

/** Pieces of the generated questions (no pawns). */
export const PIECES = ['KING', 'QUEEN', 'ROOK', 'BISHOP', 'KNIGHT'] as const;

/** A random 8 x 8 question with a random mask: about 80 % of the squares passable, always its own two. */
export function randomQuestion(random: () => number = Math.random) {
  const from = Math.floor(random() * 64);
  const to = Math.floor(random() * 64);
  let mask = 0n;
  for (let i = 0; i < 64; i++) if (random() < 0.8 || i === from || i === to) mask |= 1n << BigInt(i);
  return {
    piece: PIECES[Math.floor(random() * 5)],
    from: [square(from)],
    to: [square(to)],
    mask: `0x${mask.toString(16).padStart(16, '0')}`,
  };
}

/** A generated question. */
export type Question = ReturnType<typeof randomQuestion>;

/** The selection of the distinct-question rows. */
export const SELECTION = '{ distance layers { squares } pathCount }';

/** Questions of one batch request. */
export const PER_BATCH = 100;

/** A request body: a document and its variables. */
export const body = (query: string, variables?: unknown) => JSON.stringify({ query, variables });

/**
 * Bodies made by `make`, one a call: `ready` of them made now, so that the load generator, which
 * shares the machine's cores with the server, only hands texts over while it measures; more
 * are made if they run out.
 */
export function madeAhead(ready: number, make: () => string): () => string {
  const bodies = Array.from({ length: ready }, make);
  let next = 0;
  return () => (next < bodies.length ? bodies[next++] : make());
}

/** One question as the variables of one fixed document (how front ends ask). */
export const ONE_QUESTION = `query($q: PathQuery!) { shortestPaths(query: $q) ${SELECTION} }`;

/** A hundred questions as the variables of one document. */
export const BATCH_OF_NEW = `query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) ${SELECTION} }`;

/** One question as a document with its arguments written as literals. */
export const literal = (q: Question) =>
  `{ shortestPaths(query: { piece: ${q.piece}, from: ${JSON.stringify(q.from)}, to: ${JSON.stringify(q.to)}, mask: "${q.mask}" }) ${SELECTION} }`;

/** A random question not in `seen` (by its JSON text), which it then joins. */
export function unseenQuestion(random: () => number, seen: Set<string>): Question {
  for (;;) {
    const q = randomQuestion(random);
    const text = JSON.stringify(q);
    if (!seen.has(text)) {
      seen.add(text);
      return q;
    }
  }
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolvePort(port));
    });
  });
}
