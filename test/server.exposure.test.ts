/**
 * What the service shows to the world, by configuration, over real HTTP: introspection and the
 * playground off (every introspection entry point refused, field suggestions hidden, no landing
 * page and none of its files), the playground off with introspection kept, both on by default in production too (the
 * playground needs introspection), and cross-site safety (plain GET queries answered, text/plain POSTs refused) in every combination.
 */
import { describe, expect, it } from 'vitest';
import { readPlaygroundFiles } from '../src/graphql/apollo/playground.js';
import { startTestServer, type TestServer } from './support/test-server.js';

const SEED = '{ shortestPaths(query: { piece: KING, from: ["e4"], to: ["a1", "h8"] }) { distance } }';

async function landingPage(t: TestServer) {
  const res = await fetch(`${t.url}/graphql`, { headers: { accept: 'text/html' } });
  return { status: res.status, text: await res.text() };
}

/** The status of a request for the playground's script (a file of the build), the same as for its service worker's. */
async function playgroundScript(t: TestServer): Promise<number> {
  const files = await readPlaygroundFiles();
  const status = (await fetch(`${t.url}/playground/${files?.script}`)).status;
  expect((await fetch(`${t.url}/playground/sw.js`)).status).toBe(status);
  return status;
}

/**
 * Cross-site safety holds in every configuration: a plain GET query is answered (it can do
 * nothing a direct request cannot), a text/plain POST (what a form on another site can send) is 415.
 */
async function expectCrossSiteSafety(t: TestServer): Promise<void> {
  const simple = await fetch(`${t.url}/graphql?query=${encodeURIComponent('{ __typename }')}`);
  expect(simple.status).toBe(200);
  expect(await simple.json()).toEqual({ data: { __typename: 'Query' } });
  const plain = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: JSON.stringify({ query: '{ __typename }' }),
  });
  expect(plain.status).toBe(415);
}

describe('introspection and playground switched off (PLAYGROUND=false INTROSPECTION=false)', () => {
  it('refuses __schema and __type, hides field suggestions, serves no playground, answers queries', async () => {
    const t = await startTestServer({
      database: false,
      env: { PLAYGROUND: 'false', INTROSPECTION: 'false', NODE_ENV: 'production' },
    });
    try {
      for (const query of [
        '{ __schema { queryType { name } } }',
        '{ __type(name: "PathResult") { fields { name } } }',
      ]) {
        const res = await t.gql(query);
        // A validation failure answered as application/json: 200 (GraphQL-over-HTTP).
        expect(res.status).toBe(200);
        expect(res.body.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
        expect(res.body.errors?.[0].message).toMatch(/introspection/i);
        expect(JSON.stringify(res.body)).not.toMatch(/PathResult"|fields/);
      }
      const typo = await t.gql('{ shortestPath(query: { piece: KING, from: ["e4"], to: ["a1"] }) { distance } }');
      expect(typo.body.errors?.[0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(typo.body.errors?.[0].message).not.toMatch(/Did you mean|shortestPaths/);

      const page = await landingPage(t);
      expect(page.text).not.toMatch(/graphiql|SeedExample/i);
      expect(await playgroundScript(t)).toBe(404);
      expect((await t.gql(SEED)).body).toEqual({ data: { shortestPaths: { distance: 4 } } });
      expect((await t.gql('{ __typename }')).body).toEqual({ data: { __typename: 'Query' } });
      await expectCrossSiteSafety(t);
    } finally {
      await t.close();
    }
  });
});

describe('playground off, introspection kept (PLAYGROUND=false INTROSPECTION=true)', () => {
  it('answers introspection and suggests fields, but serves no playground', async () => {
    const t = await startTestServer({ database: false, env: { PLAYGROUND: 'false', INTROSPECTION: 'true' } });
    try {
      const intro = await t.gql('{ __type(name: "Piece") { enumValues { name } } }');
      expect(intro.body.data.__type.enumValues.map((v: { name: string }) => v.name)).toContain('KNIGHT');
      const typo = await t.gql('{ shortestPath(query: { piece: KING, from: ["e4"], to: ["a1"] }) { distance } }');
      expect(typo.body.errors?.[0].message).toMatch(/Did you mean "shortestPaths/);
      expect((await landingPage(t)).text).not.toMatch(/graphiql|SeedExample/i);
      expect(await playgroundScript(t)).toBe(404);
      await expectCrossSiteSafety(t);
    } finally {
      await t.close();
    }
  });
});

describe('PLAYGROUND=false alone', () => {
  it('turns introspection off with it (INTROSPECTION defaults to PLAYGROUND)', async () => {
    const t = await startTestServer({ database: false, env: { PLAYGROUND: 'false' } });
    try {
      expect(
        (await t.gql('{ __schema { queryType { name } } }')).body.errors?.[0].extensions?.validationErrorCode,
      ).toBe('INTROSPECTION_DISABLED');
    } finally {
      await t.close();
    }
  });
});

describe('defaults, in production too', () => {
  it('serve the playground and answer introspection, with cross-site safety', async () => {
    const t = await startTestServer({ database: false, env: { NODE_ENV: 'production' } });
    try {
      const page = await landingPage(t);
      expect(page.status).toBe(200);
      expect(page.text).toContain('SeedExample');
      expect(await playgroundScript(t)).toBe(200);
      const intro = await t.gql('{ __schema { queryType { name } } }');
      expect(intro.body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
      await expectCrossSiteSafety(t);
    } finally {
      await t.close();
    }
  });
});
