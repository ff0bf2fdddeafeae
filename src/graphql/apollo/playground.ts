/**
 * An offline playground that opens at once. Apollo's default landing page loads its UI from a CDN
 * and shows nothing without internet; `@graphql-yoga/render-graphiql` ships GraphiQL whole, but its
 * `renderGraphiQL` inlines everything into one 9 MB page that a browser downloads and parses again
 * on every visit. So `npm run build` writes the package's pieces as files named by their content
 * hash, compressed once (`scripts/build-playground.mjs`, listed in dist/playground/manifest.json),
 * `src/http/playground-route.ts` serves them to be kept for a year, and the page this plugin renders
 * is a few KB that loads them: a browser fetches them once per version and reads them from its
 * cache after that. Nothing comes from another host (Monaco's editor workers are files of the
 * build too); the page talks only to the endpoint it is given and POSTs `application/json`, the
 * body type the endpoint asks of a POST.
 *
 * The page opens on the seed's worked example, on every visit: GraphiQL reopens the tabs of an
 * earlier visit and, given only a default query, adds an empty one; given the query to show, it
 * shows the seed's tab again (a link with `?query=` still opens its own). And GraphiQL's result
 * pane wraps long lines, which breaks the example's boards drawn side by side (`asciiLines`), so
 * the page turns wrapping off there with Monaco's public API (a wide answer scrolls sideways).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { ApolloServerPlugin } from '@apollo/server';

/** The seed's worked example: a king from e4 to a1 or h8 on an empty 8 x 8 board. */
export const DEFAULT_QUERY = `# Westcott's example from the seed: all shortest king paths from e4 to a1 or h8.
# Press the run button (or Ctrl-Enter) to solve it: a board per step,
# rank 8 on top, 1 on the squares reached in that many moves.
query SeedExample {
  shortestPaths(query: { piece: KING, from: ["e4"], to: ["a1", "h8"] }) {
    distance
    overlay {
      asciiLines
    }
    layers {
      squares
    }
  }
}
`;

/** Where the page's files are served (`src/http/playground-route.ts`). */
export const PLAYGROUND_FILES_PATH = '/playground/';

/**
 * Where the build writes them: next to the compiled `graphql/` directory (`dist/playground/`), or,
 * when this module runs from `src/graphql/apollo/` (tsx, the tests), in the package's `dist/`.
 */
export const PLAYGROUND_DIR = fileURLToPath(
  new URL(
    /\/src\/graphql\/apollo\/[^/]+$/.test(import.meta.url) ? '../../../dist/playground/' : '../../playground/',
    import.meta.url,
  ),
);

/** The files of a build, by name (`manifest.json`). */
export interface PlaygroundFiles {
  script: string;
  style: string;
  /** Monaco's editor workers by the label it asks for them with. */
  workers: Record<string, string>;
}

/** The build's files, or null when there is no build. */
export async function readPlaygroundFiles(dir: string = PLAYGROUND_DIR): Promise<PlaygroundFiles | null> {
  try {
    return JSON.parse(await readFile(`${dir}manifest.json`, 'utf8')) as PlaygroundFiles;
  } catch {
    return null;
  }
}

/** A value written into the page's script: JSON, with `<` escaped so no text can close the script. */
const inScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The playground page for `endpoint`, loading `files` (a few KB). */
export function renderPlayground(endpoint: string, files: PlaygroundFiles): string {
  const url = (name: string) => `${PLAYGROUND_FILES_PATH}${name}`;
  const workers = Object.fromEntries(Object.entries(files.workers).map(([label, name]) => [label, url(name)]));
  const options = { endpoint, title: 'chess-paths playground', defaultQuery: DEFAULT_QUERY };
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>chess-paths playground</title>
    <link rel="icon" href="/favicon.svg" />
    <link rel="stylesheet" href="${url(files.style)}" />
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>You need to enable JavaScript to run this app.</noscript>
    <div id="root"></div>
    <script>
      {
        const workers = ${inScript(workers)};
        // globalAPI: Monaco publishes its API as self.monaco, used below to unwrap the result pane.
        self.MonacoEnvironment = { globalAPI: true, getWorkerUrl: (moduleId, label) => workers[label] };
      }
    </script>
    <script src="${url(files.script)}"></script>
    <script>
      {
        const options = ${inScript(options)};
        const RESULT_PANE = { wordWrap: 'off', fontSize: 14 };
        options.query = new URLSearchParams(location.search).get('query') ?? options.defaultQuery;
        const root = document.getElementById('root');
        YogaGraphiQL.renderYogaGraphiQL(root, options);
        // Once the result pane holds an editor (Monaco is loaded by then: asked earlier, it would
        // start before all of itself is there), its long lines scroll instead of wrapping, a pixel
        // smaller than GraphiQL's 15: the seed's five boards then fit beside the scroll bar at 1,920.
        new MutationObserver(() => {
          if (!root.querySelector('.graphiql-response .monaco-editor')) return;
          for (const editor of self.monaco.editor.getEditors()) {
            const inResult = editor.getContainerDomNode().closest('.graphiql-response');
            if (inResult && editor.getRawOptions().wordWrap !== 'off') editor.updateOptions(RESULT_PANE);
          }
        }).observe(root, { childList: true, subtree: true });
      }
    </script>
  </body>
</html>
`;
}

/** The page without a build: says how to make one. */
const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8" /><title>chess-paths playground</title></head>
<body><p>The playground is not built: run <code>npm run build</code> and reload.</p></body></html>
`;

/** Apollo plugin whose landing page is the offline GraphiQL playground. */
export function playgroundPlugin(options: { endpoint: string; dir?: string }): ApolloServerPlugin {
  return {
    async serverWillStart() {
      let page: string | undefined;
      return {
        async renderLandingPage() {
          return {
            // Read once the build is there; until then each request looks again.
            async html() {
              if (page) return page;
              const files = await readPlaygroundFiles(options.dir);
              if (!files) return NOT_BUILT;
              page = renderPlayground(options.endpoint, files);
              return page;
            },
          };
        },
      };
    },
  };
}
