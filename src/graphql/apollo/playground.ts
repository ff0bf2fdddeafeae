/**
 * An offline playground: Apollo's default landing page loads its UI from a CDN and shows nothing
 * without internet, so this landing-page plugin serves GraphiQL from the installed
 * `@graphql-yoga/render-graphiql` package instead. Its page is self-contained (scripts, styles and
 * editor workers inline, about 9 MB; the HTTP layer sends it gzip-compressed with an ETag), talks
 * only to the endpoint it is given, and POSTs `application/json`, the body type the endpoint asks of a POST.
 * The default query is the seed's worked example.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';

/** The seed's worked example: a king from e4 to a1 or h8 on an empty 8 x 8 board. */
export const DEFAULT_QUERY = `# Westcott's example from the seed: all shortest king paths from e4 to a1 or h8.
# Press the run button (or Ctrl-Enter) to solve it.
query SeedExample {
  shortestPaths(query: { piece: KING, from: ["e4"], to: ["a1", "h8"] }) {
    distance
    layers {
      squares
    }
    overlay {
      asciiLines
    }
  }
}
`;

/** The playground page for `endpoint` (built once; about 9 MB of HTML). */
export function renderPlayground(endpoint: string): string {
  return renderGraphiQL({
    endpoint,
    title: 'chess-paths playground',
    defaultQuery: DEFAULT_QUERY,
  });
}

/** Apollo plugin whose landing page is the offline GraphiQL playground. */
export function playgroundPlugin(options: { endpoint: string }): ApolloServerPlugin {
  return {
    async serverWillStart() {
      return {
        async renderLandingPage() {
          return { html: renderPlayground(options.endpoint) };
        },
      };
    },
  };
}
