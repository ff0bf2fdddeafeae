/**
 * A front end's page for test/server.clients.cross-origin.test.ts, bundled for the browser: the
 * README's Apollo Client and urql set-ups, as written there, pointed at the API on another
 * origin (`?api=`), asking the seed question (Apollo over GET, urql with its defaults) and saving
 * an analysis (a mutation over POST with JSON, which needs a CORS preflight). What each answered,
 * or the error it met, goes to `window.answers`.
 */
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { Client, cacheExchange, fetchExchange } from '@urql/core';

const api = new URL(location.href).searchParams.get('api') as string;
const SEED =
  'query Seed { shortestPaths(query: { piece: KING, from: ["e4"], to: ["a1", "h8"] }) { distance pathCount } }';
const SAVE =
  'mutation Save($t: String!) { saveAnalysis(input: { title: $t, queries: [{ piece: KNIGHT, from: ["b1"], to: ["g8"] }] }) { editToken analysis { title results { distance } } } }';

const apollo = new ApolloClient({
  link: new HttpLink({ uri: api, useGETForQueries: true }),
  cache: new InMemoryCache(),
});
const urql = new Client({ url: api, exchanges: [cacheExchange, fetchExchange] });

const settle = async (run: () => Promise<unknown>) => {
  try {
    return { data: await run() };
  } catch (err) {
    return { error: String(err) };
  }
};

(window as unknown as { answers: Promise<unknown> }).answers = (async () => ({
  apolloQuery: await settle(async () => (await apollo.query({ query: gql(SEED) })).data),
  apolloMutation: await settle(
    async () => (await apollo.mutate({ mutation: gql(SAVE), variables: { t: 'from another origin' } })).data,
  ),
  urqlQuery: await settle(async () => {
    const result = await urql.query(SEED, {}).toPromise();
    if (result.error) throw result.error;
    return result.data;
  }),
}))();
