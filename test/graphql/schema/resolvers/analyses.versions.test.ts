/**
 * An analysis at the last version (2^31 - 1, GraphQL's largest `Int`) over real HTTP against a
 * real SQLite store: `updateAnalysis` answers STORAGE_LIMIT_EXCEEDED with the version and the
 * limit (not an internal error), and the analysis is still read and listed as it was. The version
 * is set through the store's own connection, the only one SQLite lets in while the server runs.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PrismaClient } from '../../../../src/store/generated/prisma/client.js';
import { openStore } from '../../../../src/store/index.js';
import { startTestServer, type TestServer } from '../../../support/test-server.js';

const MAX_VERSION = 2 ** 31 - 1;

let t: TestServer;
let prisma: PrismaClient | undefined;
beforeAll(async () => {
  t = await startTestServer({
    deps: { openStore: (options) => openStore(options, { onConnected: (client) => void (prisma = client) }) },
  });
});
afterAll(async () => {
  await t?.close();
});

const SAVE = 'mutation($input: SaveAnalysisInput!) { saveAnalysis(input: $input) { editToken analysis { id } } }';
const UPDATE = `mutation($id: ID!, $token: String!, $input: UpdateAnalysisInput!) {
  updateAnalysis(id: $id, editToken: $token, input: $input) { title version }
}`;
const LIST = '{ analyses(first: 10) { totalCount edges { node { id title version } } } }';

it('answers STORAGE_LIMIT_EXCEEDED for an update at the last version, and still lists the analysis', async () => {
  const saved = await t.gql(SAVE, { input: { title: 'Old one', queries: [] } });
  expect(saved.body.errors).toBeUndefined();
  const { editToken, analysis } = saved.body.data.saveAnalysis as { editToken: string; analysis: { id: string } };
  await prisma!.$executeRawUnsafe('UPDATE "Analysis" SET "version" = ? WHERE "id" = ?', MAX_VERSION, analysis.id);

  const refused = await t.gql(UPDATE, { id: analysis.id, token: editToken, input: { title: 'New title' } });
  expect(refused.status).toBe(200);
  expect(refused.body.data).toBeNull(); // updateAnalysis is non-null: the error nulls the answer
  expect(refused.body.errors).toHaveLength(1);
  expect(refused.body.errors?.[0]).toMatchObject({
    path: ['updateAnalysis'],
    extensions: { code: 'STORAGE_LIMIT_EXCEEDED', currentVersion: MAX_VERSION, max: MAX_VERSION },
  });
  expect(refused.body.errors?.[0].message).toMatch(/version 2147483647.*as a new analysis/s);
  expect(await t.metric('chess_paths_graphql_errors_total', { code: 'INTERNAL_SERVER_ERROR' })).toBe(0);

  const listed = await t.gql(LIST);
  expect(listed.body.errors).toBeUndefined();
  expect(listed.body.data.analyses).toEqual({
    totalCount: 1,
    edges: [{ node: { id: analysis.id, title: 'Old one', version: MAX_VERSION } }],
  });
});
