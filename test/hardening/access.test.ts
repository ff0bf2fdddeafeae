/**
 * Access to saved analyses: only the edit token returned by `saveAnalysis` changes or deletes
 * its analysis. test/graphql/schema/resolvers/analyses.test.ts checks that an update with an empty, a wrong or
 * another analysis's token is FORBIDDEN and leaves the title alone, and that a delete with a
 * wrong token is FORBIDDEN. Added here:
 *
 * - a forbidden update or delete changes nothing at all (title, notes, FEN, results, updatedAt),
 *   whatever the input carries; every pair of five analyses' tokens, for update and delete;
 * - near misses: one character changed, cut, extended, case-flipped, padded, the standard base64
 *   spelling, the stored SHA-256 itself, a megabyte of token, unicode; a deleted analysis's token;
 * - a missing token (argument omitted, null, empty) is refused before anything runs;
 * - tokens carry 256 random bits, are all distinct, and appear nowhere in the database files
 *   (only their SHA-256 is stored), nor in any read of an analysis, nor in the schema;
 * - forbidden attempts racing a legitimate update do not disturb it;
 * - guessing is throttled: forbidden attempts count against the mutation rate limit.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

let t: TestServer;
let dir: string;

/** A server on the database in `dir`. */
const startOn = (dir: string) =>
  startTestServer({ env: { DATABASE_URL: `file:${join(dir, 'access.db')}`, RATE_LIMIT_MUTATIONS: '0' } });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'chess-paths-access-'));
  t = await startOn(dir);
});
afterAll(async () => {
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const SAVE = 'mutation($i: SaveAnalysisInput!) { saveAnalysis(input: $i) { editToken analysis { id } } }';
const UPDATE =
  'mutation($id: ID!, $t: String!, $i: UpdateAnalysisInput!) { updateAnalysis(id: $id, editToken: $t, input: $i) { id title } }';
const DELETE = 'mutation($id: ID!, $t: String!) { deleteAnalysis(id: $id, editToken: $t) }';
const READ =
  'query($id: ID!) { analysis(id: $id) { id title notes fen createdAt updatedAt results { key distance } } }';

const FEN = '8/8/8/8/4K3/8/8/8 w - - 0 1';
const queriesOf = (i: number) => [
  { piece: 'KING', from: ['e4'], to: ['a1', 'h8'] },
  { piece: 'KNIGHT', from: ['b1'], to: [['c3', 'd2', 'a3', 'h8', 'g6'][i % 5]] },
];

interface Saved {
  id: string;
  token: string;
}

async function save(i: number): Promise<Saved> {
  const res = await t.gql(SAVE, {
    i: { title: `analysis ${i}`, notes: `notes ${i}`, fen: FEN, queries: queriesOf(i) },
  });
  expect(res.body.errors).toBeUndefined();
  return { id: res.body.data.saveAnalysis.analysis.id, token: res.body.data.saveAnalysis.editToken };
}

async function read(id: string) {
  const res = await t.gql(READ, { id });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.analysis as Record<string, unknown> | null;
}

/** Every kind of change an attacker could ask for at once. */
const HOSTILE_PATCH = {
  title: 'stolen',
  notes: 'defaced',
  fen: null,
  queries: [{ piece: 'ROOK', from: ['a1'], to: ['a8'] }],
};

async function expectForbiddenAndUnchanged(target: Saved, token: unknown) {
  const before = await read(target.id);
  const update = await t.gql(UPDATE, { id: target.id, t: token, i: HOSTILE_PATCH });
  const del = await t.gql(DELETE, { id: target.id, t: token });
  const label = `token ${JSON.stringify(String(token).slice(0, 60))}`;
  expect(
    update.body.errors?.map((e) => e.extensions?.code),
    label,
  ).toEqual(['FORBIDDEN']);
  expect(update.body.data ?? null, label).toBeNull();
  expect(
    del.body.errors?.map((e) => e.extensions?.code),
    label,
  ).toEqual(['FORBIDDEN']);
  expect(await read(target.id), label).toEqual(before);
}

describe('edit tokens', () => {
  let five: Saved[];
  beforeAll(async () => {
    five = [];
    for (let i = 0; i < 5; i++) five.push(await save(i));
  });

  it('every other analysis’s token is FORBIDDEN for update and delete, and changes nothing', async () => {
    for (const target of five) {
      for (const other of five) if (other !== target) await expectForbiddenAndUnchanged(target, other.token);
    }
  });

  it('near misses of the right token are FORBIDDEN and change nothing', async () => {
    const target = five[0];
    const token = target.token;
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    const nearMisses = [
      flip(token, 0),
      flip(token, token.length - 1),
      flip(token, 21),
      token.slice(0, -1),
      token.slice(1),
      `${token}A`,
      `${token}=`,
      ` ${token}`,
      `${token}\n`,
      token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase(),
      token.replace(/-/g, '+').replace(/_/g, '/') + (token.includes('-') || token.includes('_') ? '' : '=='),
      Buffer.from(token, 'base64url').toString('hex'),
      createHash('sha256').update(token).digest('hex'),
      createHash('sha256').update(token).digest('base64url'),
      token.repeat(2),
      'x'.repeat(1_000_000),
      '\u{1F511}'.repeat(43),
      '\u0000'.repeat(43),
      'null',
      'undefined',
    ];
    for (const candidate of nearMisses) {
      if (candidate !== token) await expectForbiddenAndUnchanged(target, candidate);
    }
    // And the right token still works afterwards.
    const ok = await t.gql(UPDATE, { id: target.id, t: token, i: { notes: 'changed by the owner' } });
    expect(ok.body.errors).toBeUndefined();
  });

  it('a missing token is refused before anything runs: omitted, null or empty', async () => {
    const target = five[1];
    const before = await read(target.id);
    const omitted = await t.gql(`mutation($id: ID!) { updateAnalysis(id: $id, input: { title: "stolen" }) { id } }`, {
      id: target.id,
    });
    // Refused by validation, then by variable coercion, before anything runs: 200, as
    // GraphQL-over-HTTP has it for an application/json answer (400 for graphql-response+json).
    expect(omitted.status).toBe(200);
    expect(omitted.body.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const omittedDelete = await t.gql(`mutation($id: ID!) { deleteAnalysis(id: $id) }`, { id: target.id });
    expect(omittedDelete.body.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const nulled = await t.gql(UPDATE, { id: target.id, t: null, i: { title: 'stolen' } });
    expect(nulled.status).toBe(200);
    expect(nulled.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const nulledDelete = await t.gql(DELETE, { id: target.id, t: null });
    expect(nulledDelete.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    await expectForbiddenAndUnchanged(target, '');
    expect(await read(target.id)).toEqual(before);
  });

  it('the token of a deleted analysis opens nothing else', async () => {
    const doomed = await save(99);
    expect((await t.gql(DELETE, { id: doomed.id, t: doomed.token })).body.data.deleteAnalysis).toBe(true);
    await expectForbiddenAndUnchanged(five[2], doomed.token);
    // On its own (gone) id: nothing to update, nothing to delete.
    expect(
      (await t.gql(UPDATE, { id: doomed.id, t: doomed.token, i: { title: 'back' } })).body.errors?.[0].extensions?.code,
    ).toBe('NOT_FOUND');
    expect((await t.gql(DELETE, { id: doomed.id, t: doomed.token })).body.errors?.[0].extensions?.code).toBe(
      'NOT_FOUND',
    );
  });

  it('forbidden attempts racing the owner’s update do not disturb it', async () => {
    const target = five[3];
    const attempts = Array.from({ length: 40 }, (_, i) =>
      i % 2 === 0
        ? t.gql(UPDATE, { id: target.id, t: five[4].token, i: { title: `stolen ${i}` } })
        : t.gql(DELETE, { id: target.id, t: `guess-${i}` }),
    );
    const owner = t.gql(UPDATE, { id: target.id, t: target.token, i: { title: 'owner’s title' } });
    const results = await Promise.all(attempts);
    expect(results.map((r) => r.body.errors?.[0].extensions?.code)).toEqual(Array(40).fill('FORBIDDEN'));
    expect((await owner).body.data.updateAnalysis.title).toBe('owner’s title');
    expect((await read(target.id))?.title).toBe('owner’s title');
  });
});

describe('tokens are random, shown once, and stored only as a hash', () => {
  it('are 256-bit base64url strings, all distinct', async () => {
    const saved: Saved[] = [];
    for (let i = 0; i < 200; i++) saved.push(await save(1000 + i));
    const tokens = saved.map((s) => s.token);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    }
    expect(new Set(tokens).size).toBe(tokens.length);
    // Crude randomness check: every base64url symbol shows up, and no position is constant.
    const symbols = new Set(tokens.join(''));
    expect(symbols.size).toBe(64);
    for (let i = 0; i < 42; i++) expect(new Set(tokens.map((tk) => tk[i])).size).toBeGreaterThan(20);
  });

  it('appear nowhere in the database files; the SHA-256 of each is what is stored', async () => {
    const saved: Saved[] = [];
    for (let i = 0; i < 20; i++) saved.push(await save(2000 + i));
    await t.server.settle();
    const files = readdirSync(dir).filter((f) => f.startsWith('access.db'));
    expect(files).toContain('access.db');
    const contents = files.map((f) => readFileSync(join(dir, f)).toString('latin1'));
    for (const { token } of saved) {
      for (const content of contents) expect(content.includes(token)).toBe(false);
    }
    // The server holds its database exclusively while it runs: stop it to look, then start it again.
    await t.server.close();
    const db = new Database(join(dir, 'access.db'), { fileMustExist: true });
    try {
      const columns = (db.prepare('PRAGMA table_info("Analysis")').all() as { name: string }[]).map((c) => c.name);
      expect(columns.filter((c) => /token/i.test(c))).toEqual(['editTokenHash']);
      const hashOf = db.prepare('SELECT "editTokenHash" AS h FROM "Analysis" WHERE "id" = ?');
      for (const { id, token } of saved) {
        expect((hashOf.get(id) as { h: string }).h).toBe(createHash('sha256').update(token, 'utf8').digest('hex'));
      }
    } finally {
      db.close();
      t = await startOn(dir);
    }
  });

  it('are never in a read: analysis, analyses, or anywhere in the schema', async () => {
    const mine = await save(3000);
    const one = await t.gql(READ, { id: mine.id });
    const page = await t.gql(
      '{ analyses(first: 1000) { edges { cursor node { id title notes fen createdAt updatedAt results { key } } } } }',
    );
    expect(JSON.stringify(one.body)).not.toContain(mine.token);
    expect(JSON.stringify(page.body)).not.toContain(mine.token);
    const schema = await t.gql('{ __type(name: "Analysis") { fields { name } } }');
    expect(schema.body.data.__type.fields.map((f: { name: string }) => f.name)).not.toContain('editToken');
    expect(JSON.stringify(schema.body)).not.toMatch(/hash/i);
  });
});

describe('guessing is throttled', () => {
  it('forbidden attempts count against the mutation rate limit', async () => {
    // An hour: the window cannot end within the test's time limit, however slow the requests.
    const limited = await startTestServer({ env: { RATE_LIMIT_MUTATIONS: '5', RATE_LIMIT_WINDOW_MS: '3600000' } });
    try {
      const saved = await limited.gql(SAVE, { i: { title: 'target', queries: [] } });
      const id = saved.body.data.saveAnalysis.analysis.id;
      const codes: string[] = [];
      for (let i = 0; i < 8; i++) {
        const res = await limited.gql(DELETE, { id, t: `guess-${i}` });
        codes.push(`${res.status} ${res.body.errors?.[0].extensions?.code}`);
      }
      // One unit went to the save: four guesses, then 429s.
      expect(codes).toEqual([...Array(4).fill('200 FORBIDDEN'), ...Array(4).fill('429 RATE_LIMITED')]);
      const still = await limited.gql('query($id: ID!) { analysis(id: $id) { title } }', { id });
      expect(still.body.data.analysis.title).toBe('target');
    } finally {
      await limited.close();
    }
  });
});
