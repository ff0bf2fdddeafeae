/**
 * The load of the SIGKILL durability test (test/hardening/durability.test.ts): eight clients that
 * save analyses (random content, from a seeded PRNG), update the ones they saved and ask path
 * questions, and two that keep the worker threads busy with heavy maze batches, all sending until
 * the server is killed mid-write; and the ledger of what was sent and what was acknowledged,
 * which the checks after the restart hold the stored analyses to.
 */
import { type PathQuery, squareName } from '@chess-paths/engine';
import { expect } from 'vitest';
import { mazeQuery } from '../../../packages/engine/test/support/maze.js';
import type { ChildServer } from '../child-server.js';

/** Clients saving, updating and asking at once (besides the two heavy ones). */
const CLIENTS = 8;
/** A request not answered within this is a hang (they take milliseconds; heavy batches, a second). */
const REQUEST_TIMEOUT_MS = 15_000;

/** What a client sends as an analysis's content. */
export interface Content {
  title: string;
  notes: string | null;
  fen: string | null;
  queries: PathQuery[];
}

/** An analysis whose save was acknowledged (or that landed without an acknowledgement). */
export interface Acknowledged {
  id: string;
  /** Undefined for a save that landed but whose answer never reached the client. */
  token?: string;
  /** The last acknowledged version. */
  content: Content;
  /** Versions sent by updates that were not acknowledged (in flight at the kill). */
  pending: Content[];
}

/** What the clients sent and what the server acknowledged, across rounds and restarts. */
export interface Ledger {
  /** Every analysis whose save was acknowledged (or that landed without an acknowledgement), by id. */
  acknowledged: Map<string, Acknowledged>;
  /** Every content ever sent in a save, by title (titles are unique): what an unacknowledged save may have left. */
  sentByTitle: Map<string, Content>;
}

/** A small deterministic PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The standard board. */
const B8 = { files: 8, ranks: 8 };
/** Valid positions, for queries and analyses. */
const FENS = [
  '8/8/8/8/4K3/8/8/8 w - - 0 1',
  '4k3/8/8/3p4/8/2N5/8/4K3 b - - 0 40',
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
];
const PIECES = ['KING', 'QUEEN', 'ROOK', 'BISHOP', 'KNIGHT', 'WHITE_PAWN', 'BLACK_PAWN'] as const;

/** A random valid path question: on the standard board (some blocked squares, a FEN), or on a larger one. */
export function randomQuery(rand: () => number): PathQuery {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const kind = rand();
  if (kind < 0.6) {
    const from = Math.floor(rand() * 64);
    const to = Math.floor(rand() * 64);
    const q: PathQuery = {
      piece: pick(PIECES),
      from: [squareName(from, B8)],
      to: [squareName(to, B8), squareName((to * 7 + 3) % 64, B8)],
    };
    if (rand() < 0.4) q.blocked = [squareName((from + 9) % 64, B8)].filter((s) => s !== q.from[0] && !q.to.includes(s));
    if (rand() < 0.3) q.fen = pick(FENS);
    return q;
  }
  const side = 5 + Math.floor(rand() * 20);
  const board = { files: side, ranks: side };
  return {
    piece: pick(PIECES),
    board,
    from: [squareName(0, board)],
    to: [squareName(side * side - 1 - Math.floor(rand() * side), board)],
  };
}

/** A random analysis with 1 to 4 questions, titled `title`, notes and a FEN sometimes. */
function randomContent(rand: () => number, title: string): Content {
  const n = 1 + Math.floor(rand() * 4);
  const r = rand();
  return {
    title,
    notes:
      r < 0.3
        ? null
        : r < 0.6
          ? `notes ✓ ${title} ${'é'.repeat(Math.floor(rand() * 50))}`
          : `long ${'x'.repeat(2000 + Math.floor(rand() * 3000))}`,
    fen: rand() < 0.5 ? null : FENS[Math.floor(rand() * FENS.length)],
    queries: Array.from({ length: n }, () => randomQuery(rand)),
  };
}

/** Saves an analysis; answers its edit token and id. */
const SAVE = 'mutation($i: SaveAnalysisInput!) { saveAnalysis(input: $i) { editToken analysis { id title } } }';
/** Updates an analysis with its edit token. */
export const UPDATE =
  'mutation($id: ID!, $t: String!, $i: UpdateAnalysisInput!) { updateAnalysis(id: $id, editToken: $t, input: $i) { id title } }';
/** The fields of an analysis the checks read back. */
export const READ_FIELDS = 'id title notes fen results { key distance layers { squares } }';

/** A GraphQL answer, loosely typed. */
export interface Gql {
  data?: any;
  errors?: { message: string; extensions?: { code?: string } }[];
}

/** POSTs a GraphQL request to the server at `url`; rejects after `timeoutMs` (a hang). */
export async function gql(
  url: string,
  query: string,
  variables?: unknown,
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<Gql> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return (await res.json()) as Gql;
}

/** What one round's load did, up to the kill. */
export interface LoadResult {
  requests: number;
  saves: number;
  updates: number;
  paths: number;
  /** Heavy batches answered, refused at admission, and cut off by the engine budget. */
  heavy: number;
  overloaded: number;
  overBudget: number;
  inFlightAtKill: number;
  mutationsInFlightAtKill: number;
  /** Errors before the kill: none expected. */
  earlyFailures: string[];
}

/** Runs the clients until `killAfterMs`, then SIGKILLs the server while they are still sending. */
export async function loadAndKill(
  s: ChildServer,
  ledger: Ledger,
  round: number,
  killAfterMs: number,
): Promise<LoadResult> {
  const result: LoadResult = {
    requests: 0,
    saves: 0,
    updates: 0,
    paths: 0,
    heavy: 0,
    overloaded: 0,
    overBudget: 0,
    inFlightAtKill: 0,
    mutationsInFlightAtKill: 0,
    earlyFailures: [],
  };
  // The clients send until the kill, however late the timer fires: a busy machine delays the kill
  // point, never ends the load before it.
  let killed = false;
  let inFlight = 0;
  let mutationsInFlight = 0;
  const { acknowledged, sentByTitle } = ledger;

  const client = async (c: number) => {
    const rand = prng(round * 1000 + c + 1);
    const mine: Acknowledged[] = [];
    for (let i = 0; !killed; i++) {
      const r = rand();
      const isMutation = r < 0.9;
      inFlight++;
      if (isMutation) mutationsInFlight++;
      result.requests++;
      try {
        if (r < 0.65 || mine.length === 0) {
          const content = randomContent(rand, `r${round}-c${c}-s${i} ✓`);
          sentByTitle.set(content.title, content);
          const res = await gql(s.url, SAVE, { i: content });
          if (res.errors) throw new Error(JSON.stringify(res.errors));
          const saved: Acknowledged = {
            id: res.data.saveAnalysis.analysis.id,
            token: res.data.saveAnalysis.editToken,
            content,
            pending: [],
          };
          acknowledged.set(saved.id, saved);
          mine.push(saved);
          result.saves++;
        } else if (r < 0.9) {
          const target = mine[Math.floor(rand() * mine.length)];
          const next = randomContent(rand, `${target.content.title.split(' u')[0]} u${i}`);
          target.pending.push(next);
          const res = await gql(s.url, UPDATE, { id: target.id, t: target.token!, i: next });
          if (res.errors) throw new Error(JSON.stringify(res.errors));
          target.content = next;
          target.pending = [];
          result.updates++;
        } else {
          const res = await gql(s.url, `query($q: PathQuery!) { shortestPaths(query: $q) { distance } }`, {
            q: randomQuery(rand),
          });
          if (res.errors) throw new Error(JSON.stringify(res.errors));
          result.paths++;
        }
      } catch (err) {
        if (!killed) result.earlyFailures.push(String(err).slice(0, 300));
        return;
      } finally {
        inFlight--;
        if (isMutation) mutationsInFlight--;
      }
    }
  };

  /**
   * Heavy work meanwhile: batches of new 64 x 64 maze questions, solved on the worker threads. Refused
   * at admission (OVERLOADED) or cut off by the engine budget (ENGINE_BUDGET_EXCEEDED: a loaded
   * machine makes a batch take longer) is an answer too.
   */
  const heavyClient = async (h: number) => {
    for (let i = 0; !killed; i++) {
      const q = Array.from({ length: 50 }, (_, k) => mazeQuery((round * 7 + h * 3 + i) * 50 + k));
      try {
        const res = await gql(s.url, 'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { distance } }', {
          q,
        });
        if (res.errors?.every((e) => e.extensions?.code === 'OVERLOADED')) result.overloaded++;
        else if (res.errors?.every((e) => e.extensions?.code === 'ENGINE_BUDGET_EXCEEDED')) result.overBudget++;
        else if (res.errors) throw new Error(JSON.stringify(res.errors).slice(0, 300));
        else result.heavy++;
      } catch (err) {
        if (!killed) result.earlyFailures.push(String(err).slice(0, 300));
        return;
      }
    }
  };

  const clients = [...Array.from({ length: CLIENTS }, (_, c) => client(c)), heavyClient(0), heavyClient(1)];
  await new Promise((r) => setTimeout(r, killAfterMs));
  result.inFlightAtKill = inFlight;
  result.mutationsInFlightAtKill = mutationsInFlight;
  killed = true;
  const exit = await s.kill('SIGKILL');
  expect(exit.signal).toBe('SIGKILL');
  await Promise.all(clients);
  return result;
}
