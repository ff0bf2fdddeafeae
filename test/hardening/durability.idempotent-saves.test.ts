/**
 * A save whose answer is lost to a SIGKILL is not stored twice when it is retried with its
 * idempotency key on the restarted server, on SQLite and on PostgreSQL.
 *
 * The real server runs as a child process (`startChildServer`). Two ways of losing the answer:
 *
 * - the save is sent on a raw socket and the server is killed the moment the first byte of its
 *   answer arrives: the save was committed (the answer is made after the commit) and the client
 *   never reads it. The retry must answer that analysis, with an edit token that works;
 * - the server is killed as soon as the request is written to the socket, so the save may or may
 *   not have run: whichever it was, after the retry exactly one analysis has its title.
 *
 * Nothing waits for time: each kill follows an event (a byte received, a write flushed).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ChildServer, startChildServer } from '../support/child-server.js';
import { createTestDatabase, skipPostgres, type TestDatabase } from '../support/postgres.js';

const SAVE = `mutation($input: SaveAnalysisInput!) {
  saveAnalysis(input: $input) { editToken analysis { id title } }
}`;
const seed = { piece: 'KING', from: ['e4'], to: ['a1', 'h8'] };

/** The raw HTTP request of a save of `title` under `key`. */
function saveRequest(url: string, title: string, key: string): string {
  const body = JSON.stringify({ query: SAVE, variables: { input: { title, queries: [seed], idempotencyKey: key } } });
  const { host } = new URL(url);
  return [
    'POST /graphql HTTP/1.1',
    `Host: ${host}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * Sends a save on a raw socket and SIGKILLs the server when `when` happens: `answer` (its first
 * byte arrived; nothing of it is read) or `sent` (the request was handed to the kernel).
 */
async function saveThenKill(server: ChildServer, title: string, key: string, when: 'answer' | 'sent') {
  const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
  socket.on('error', () => undefined); // the server dies under it
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const killed = new Promise<void>((resolve) => {
    const kill = () => void server.kill('SIGKILL').then(() => resolve());
    if (when === 'answer') socket.once('data', kill);
    socket.write(saveRequest(server.url, title, key), () => {
      if (when === 'sent') kill();
    });
  });
  await killed;
  socket.destroy();
  expect(server.alive()).toBe(false);
}

async function gql(server: ChildServer, query: string, variables: Record<string, unknown> = {}) {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as { data?: any; errors?: { message: string; extensions?: { code?: string } }[] };
}

/** The analyses stored with `title`. */
async function withTitle(server: ChildServer, title: string): Promise<{ id: string }[]> {
  const res = await gql(server, '{ analyses(first: 1000) { edges { node { id title } } } }');
  expect(res.errors).toBeUndefined();
  return res.data.analyses.edges.map((e: any) => e.node).filter((n: any) => n.title === title);
}

/** Retries the save on `server`: its answer, checked to carry a token that updates the analysis. */
async function retry(server: ChildServer, title: string, key: string) {
  const res = await gql(server, SAVE, { input: { title, queries: [seed], idempotencyKey: key } });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  const { editToken, analysis } = res.data.saveAnalysis as { editToken: string; analysis: { id: string } };
  const updated = await gql(
    server,
    'mutation($id: ID!, $t: String!) { updateAnalysis(id: $id, editToken: $t, input: { notes: "retried" }) { id } }',
    { id: analysis.id, t: editToken },
  );
  expect(updated.errors, JSON.stringify(updated.errors)).toBeUndefined();
  return analysis;
}

const servers: ChildServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
});

/** The scenario on one database; `url` is its DATABASE_URL. */
async function scenario(url: string): Promise<void> {
  const start = async () => {
    const server = await startChildServer({ env: { DATABASE_URL: url, RATE_LIMIT_MUTATIONS: '0' } });
    servers.push(server);
    return server;
  };
  // The answer is made, so the save committed; the client never reads it.
  const first = await start();
  await saveThenKill(first, 'answer lost', 'kill-after-answer-0001', 'answer');
  const second = await start();
  const [stored] = await withTitle(second, 'answer lost');
  expect(stored).toBeDefined();
  expect((await retry(second, 'answer lost', 'kill-after-answer-0001')).id).toBe(stored.id);
  expect(await withTitle(second, 'answer lost')).toHaveLength(1);

  // Killed as the request left: saved or not, the retry leaves exactly one.
  await saveThenKill(second, 'request in flight', 'kill-after-send-0001', 'sent');
  const third = await start();
  const retried = await retry(third, 'request in flight', 'kill-after-send-0001');
  expect((await withTitle(third, 'request in flight')).map((a) => a.id)).toEqual([retried.id]);
  expect(await withTitle(third, 'answer lost')).toHaveLength(1);
  await third.stop();
}

/** Three starts of the server and a few requests: about 10 s, a few minutes on a very busy machine. */
const SCENARIO_TIMEOUT_MS = 300_000;

describe('a save killed before its answer is read, retried with its key', () => {
  it('is stored once on SQLite', { timeout: SCENARIO_TIMEOUT_MS }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chess-paths-idempotent-'));
    try {
      await scenario(`file:${join(dir, 'saves.db')}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(skipPostgres)('is stored once on PostgreSQL', { timeout: SCENARIO_TIMEOUT_MS }, async () => {
    let database: TestDatabase | undefined;
    try {
      database = await createTestDatabase();
      await scenario(database.url);
    } finally {
      await database?.drop();
    }
  });
});
