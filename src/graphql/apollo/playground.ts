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
 * Once a first visit has opened, the page registers a service worker (renderPlaygroundWorker)
 * that keeps those files in Cache Storage, where Chromium keeps them compiled for the next visit.
 *
 * The page opens on the seed's worked example, on every visit: GraphiQL reopens the tabs of an
 * earlier visit and, given only a default query, adds an empty one; given the query to show, it
 * shows the seed's tab again (a link with `?query=` still opens its own). And GraphiQL's result
 * pane wraps long lines, which breaks the example's boards drawn side by side (`asciiLines`), so
 * the page turns wrapping off there with Monaco's public API (a wide answer scrolls sideways).
 */
import { createHash } from 'node:crypto';
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

/** The playground's service worker: a stable name, so a browser finds a new version there. */
export const PLAYGROUND_WORKER_PATH = `${PLAYGROUND_FILES_PATH}sw.js`;

/** The start of the names of the worker's caches in Cache Storage (the rest names the version). */
export const PLAYGROUND_CACHE_PREFIX = 'chess-paths-playground-';

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

/** The paths of a build's files: the script, the style, the editor workers. */
export function playgroundPaths(files: PlaygroundFiles): string[] {
  return [files.script, files.style, ...Object.values(files.workers)].map((name) => `${PLAYGROUND_FILES_PATH}${name}`);
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
        // The service worker that keeps these files compiled for the next visit (renderPlaygroundWorker),
        // installed once this visit has opened and the page is idle; without it the playground works the same.
        if ('serviceWorker' in navigator) {
          const register = () => navigator.serviceWorker.register(${inScript(PLAYGROUND_WORKER_PATH)}, { scope: options.endpoint });
          const idle = self.requestIdleCallback ?? setTimeout;
          addEventListener('load', () => idle(() => register().catch(() => {})));
        }
      }
    </script>
  </body>
</html>
`;
}

/**
 * The service worker for the page at `scope` (the endpoint's path), served at
 * PLAYGROUND_WORKER_PATH (`src/http/playground-route.ts`). Why: Chromium keeps a script's compiled
 * code (V8's code cache) only from its second load out of the HTTP cache, so a second visit
 * compiled GraphiQL's 5 MB again; a script that a service worker puts into Cache Storage while it
 * installs is compiled then, whole, and its compiled code kept beside it, so from the second visit
 * on the page starts from compiled code.
 *
 * It is registered once the first visit has opened. Installing, it puts this build's files into a
 * cache named by the build (from the HTTP cache, where the first visit left them: the server is not
 * asked again). Active, it deletes the caches of other builds. Where the browser has static routes
 * (Chromium's `addRoutes`), requests for /playground/ files are answered from that cache by the
 * browser itself, without starting the worker (one missing goes to the network), and every other
 * request of the page (the page itself, its POSTs to the endpoint) goes to the network untouched.
 * Elsewhere its fetch handler answers exactly this build's files from the cache and lets everything
 * else pass. A new build changes this text (it names the files), which is how a browser learns of
 * it: the new worker installs, and takes over once no page of the old one is open.
 */
export function renderPlaygroundWorker(files: PlaygroundFiles, scope: string): string {
  const paths = playgroundPaths(files);
  const version = createHash('sha256').update(paths.join('\n')).digest('hex').slice(0, 16);
  return `// The chess-paths playground's service worker for ${scope} (src/graphql/apollo/playground.ts).
const CACHE = ${inScript(`${PLAYGROUND_CACHE_PREFIX}${version}`)};
const FILES = ${inScript(paths)};

self.addEventListener('install', (event) => {
  // Put while the worker installs, scripts are compiled now and their compiled code kept with them.
  const done = [caches.open(CACHE).then((cache) => cache.addAll(FILES))];
  // Files straight from the cache, everything else straight to the network: the worker is not woken.
  if (event.addRoutes) {
    try {
      const files = { urlPattern: new URLPattern({ pathname: ${inScript(`${PLAYGROUND_FILES_PATH}*`)} }) };
      const routes = [
        { condition: files, source: { cacheName: CACHE } },
        { condition: { not: files }, source: 'network' },
      ];
      done.push(event.addRoutes(routes).catch(() => {}));
    } catch {
      // Routes this browser does not take: the fetch handler below does the work.
    }
  }
  event.waitUntil(Promise.all(done));
});

self.addEventListener('activate', (event) => {
  const old = (name) => name.startsWith(${inScript(PLAYGROUND_CACHE_PREFIX)}) && name !== CACHE;
  event.waitUntil(caches.keys().then((names) => Promise.all(names.filter(old).map((name) => caches.delete(name)))));
});

// Without static routes: this build's files from the cache, nothing else touched.
self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== location.origin || !FILES.includes(url.pathname)) return;
  event.respondWith(caches.match(request, { cacheName: CACHE, ignoreVary: true }).then((hit) => hit ?? fetch(request)));
});
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
