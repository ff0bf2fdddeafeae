/**
 * The fairy door of `npm run bench:attack`: Betza texts that are each new and as costly to read
 * as the subset allows. Reading a text traces its rays to the largest board's edge once (then it
 * is kept), so the cost is the piece's: many rays, each of many leaps, plain and lame. Every text
 * here is up to MAX_BETZA_LENGTH (1,024) characters of such terms, each its own (seeded counts),
 * asked on 8 x 8 so that the read, not the fill, is the work:
 *
 * - fairy-texts: every client sends batches of 100 questions, each with a text of its own;
 * - fairy-texts-single: every client sends one question a request, as fast as it is answered.
 *
 * FAIRY_LEN (1,024) sets the longest text, e.g. 64 to compare with a server of that limit.
 */
import { body, send } from './attack-queries.js';
import { phaseOf } from './attack-report.js';
import type { Attack, Ctx } from './attack-server.js';
import { seededRandom } from './rng.js';

/** Direction prefixes that keep some of each atom class's leaps, one or two leaps each. */
const DIRECTIONS: Record<string, readonly string[]> = {
  W: ['f', 'b', 'r', 'l'],
  F: ['fr', 'fl', 'br', 'bl'],
  N: ['ffr', 'ffl', 'bbr', 'bbl', 'frr', 'fll', 'brr', 'bll'],
};
const classOf = (atom: string) => ('WDH'.includes(atom) ? 'W' : 'FAG'.includes(atom) ? 'F' : 'N');

/** A text of at most `length` characters of ride terms (`nffrN57`), each its own count. */
function heavyText(rand: () => number, length: number): string {
  let text = '';
  for (;;) {
    const atom = 'WFDNAHCZG'[Math.floor(rand() * 9)];
    const lame = !'WF'.includes(atom) && rand() < 0.3;
    const directions = DIRECTIONS[classOf(atom)];
    const term = `${lame ? 'n' : ''}${directions[Math.floor(rand() * directions.length)]}${atom}${2 + Math.floor(rand() * 80)}`;
    if (text.length + term.length > length) return text;
    text += term;
  }
}

const QUERY = 'query($q: [PathQuery!]!) { shortestPathsBatch(queries: $q) { betza distance } }';

/** Every client sends `requests` requests one after another, each `per` questions of new texts. */
async function texts(ctx: Ctx, requests: number, per: number) {
  return Promise.all(
    ctx.agents.map(async (agent, client) => {
      const rand = seededRandom(1000 + client);
      const outcomes = [];
      for (let i = 0; i < requests; i++) {
        const q = Array.from({ length: per }, () => ({
          piece: 'FAIRY',
          betza: heavyText(rand, Number(process.env.FAIRY_LEN ?? 1024)),
          from: ['a1'],
          to: ['h8'],
        }));
        outcomes.push(await send(ctx.server.url, agent, body(QUERY, { q }), { timeoutMs: ctx.timeoutMs }));
      }
      return outcomes;
    }),
  ).then((all) => all.flat());
}

/** The fairy attacks. */
export const FAIRY: Record<string, Attack> = {
  'fairy-texts': { run: async (ctx) => ({ main: phaseOf(await texts(ctx, 3, 100)) }) },
  'fairy-texts-single': { run: async (ctx) => ({ main: phaseOf(await texts(ctx, 30, 1)) }) },
};
