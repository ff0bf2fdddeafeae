/**
 * The layer rule, checked by `npm run lint` (`depcruise src packages/engine/src`):
 * engine <- store <- graphql <- http <- server <- cli (the `chess-paths` command: src/cli.ts and
 * src/cli/, which nothing else imports). The server is src/server.ts and its parts in src/server/,
 * which only src/server.ts and each other import. The engine is its own package (packages/engine, the
 * workspace `@chess-paths/engine`): the service imports it by that name, never its files, and it
 * imports nothing of the service. `config` and `observability` serve every layer but the engine,
 * which stays pure. Type-only imports count: a layer that names a type from above depends on it
 * all the same.
 */
const layers = ['store', 'graphql', 'http'];

/** The engine package's source. */
const engine = '^packages/engine/src/';

/**
 * The GraphQL layer's folders, each with the folders it may import besides itself: they point one
 * way, so no two import each other, and none imports the layer's door (src/graphql/gateway.ts).
 * work (engine work: pool, tasks, dispatch, engine budget, admission) <- caching, limits (the rules)
 * <- request (context, loader, questions) <- schema (schema, resolvers) <- apollo (the server, its
 * plugins, which apply the limits' rules) <- gateway.ts.
 */
const graphqlFolders = {
  work: [],
  caching: ['work'],
  limits: ['work'],
  request: ['work', 'caching', 'limits'],
  schema: ['work', 'caching', 'limits', 'request'],
  apollo: ['work', 'caching', 'limits', 'request', 'schema'],
};

/**
 * The engine's folders, each with the folders it may import besides itself (and the package's
 * root files `types.ts` and `errors.ts`, the public shapes and errors, which import nothing):
 * util (caches, slabs, encodings) <- board (squares, square sets, FEN) <- betza (reading Betza)
 * and kernels (the fills of leaps and rays, which know nothing of pieces) <- fairy (fairy pieces'
 * fills) <- core (questions, the general fill, solutions, paths) <- games and pictures, which use
 * the core and never each other. Only `index.ts` imports them all.
 */
const engineFolders = {
  util: [],
  board: ['util'],
  betza: ['util'],
  kernels: ['util', 'board'],
  fairy: ['util', 'board', 'betza', 'kernels'],
  core: ['util', 'board', 'betza', 'kernels', 'fairy'],
  games: ['util', 'board', 'betza', 'kernels', 'fairy', 'core'],
  pictures: ['util', 'board', 'betza', 'kernels', 'fairy', 'core'],
};

/** The command line, the top of the layers. */
const cli = '^src/cli(\\.ts$|/)';

/** The server: its entry point and the parts it starts. */
const server = '^src/server(\\.ts$|/)';

/** Paths a layer may not import: every layer above it, the server and the command line. */
function above(layer) {
  const higher = layers.slice(layers.indexOf(layer) + 1).map((name) => `^src/${name}/`);
  return [...higher, server, cli];
}

module.exports = {
  forbidden: [
    ...layers.map((layer) => ({
      name: `${layer}-points-down`,
      comment: `src/${layer} may import only the layers below it`,
      severity: 'error',
      from: { path: `^src/${layer}/` },
      to: { path: above(layer) },
    })),
    ...Object.entries(graphqlFolders).map(([folder, below]) => ({
      name: `graphql-${folder}-points-down`,
      comment: `src/graphql/${folder} may import, of the GraphQL layer, only ${below.length ? below.join(', ') : 'itself'}`,
      severity: 'error',
      from: { path: `^src/graphql/${folder}/` },
      to: { path: '^src/graphql/', pathNot: `^src/graphql/(${[folder, ...below].join('|')})/` },
    })),
    ...Object.entries(engineFolders).map(([folder, below]) => ({
      name: `engine-${folder}-points-down`,
      comment: `packages/engine/src/${folder} may import, of the engine, only ${[...below, 'types.ts', 'errors.ts'].join(', ')}`,
      severity: 'error',
      from: { path: `${engine}${folder}/` },
      to: {
        path: engine,
        pathNot: [
          `${engine}(${[folder, ...below].join('|')})/`,
          `${engine}(types|errors)\\.ts$`,
          `${engine}generated/`,
        ],
      },
    })),
    {
      name: 'engine-root-files-are-leaves',
      comment: "the engine's types.ts and errors.ts are what every folder shares, so they import nothing of the engine",
      severity: 'error',
      from: { path: `${engine}(types|errors)\\.ts$` },
      to: { path: engine },
    },
    {
      name: 'store-through-its-index',
      comment:
        'the layers above the store reach it only through src/store/index.ts, its one door (light to load: it imports Prisma on the first openStore)',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/store/' },
      to: { path: '^src/store/', pathNot: '^src/store/index\\.ts$' },
    },
    {
      name: 'engine-is-pure',
      comment:
        'the engine imports nothing of the service (no config, no logging, no metrics, no store) and nothing ' +
        'of the repository outside its own source: of the rest, only its npm dependencies',
      severity: 'error',
      from: { path: engine },
      to: { pathNot: [engine, '^node_modules/'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'engine-has-no-node-builtins',
      comment:
        'the engine bundles for a browser: no Node built-in modules (node:crypto, buffer, ...); ' +
        'packages/engine/test/index.browser.test.ts checks the globals (Buffer, process) by running a bundle without them',
      severity: 'error',
      from: { path: engine },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'service-imports-the-engine-package',
      comment:
        "the service and its viewer import the engine as a package ('@chess-paths/engine'), never its source " +
        'or build by path: what they use is what the package exports',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^packages/engine/', dependencyTypesNot: ['aliased-workspace'] },
    },
    {
      name: 'shared-modules-stay-low',
      comment: 'config and observability are used by every layer, so they import none of them but the engine',
      severity: 'error',
      from: { path: '^src/(config(\\.ts$|/)|observability/)' },
      to: { path: ['^src/(store|graphql|http|server)', cli] },
    },
    {
      name: 'server-below-cli',
      comment: 'the command line starts the server, never the other way round',
      severity: 'error',
      from: { path: server },
      to: { path: cli },
    },
    {
      name: 'server-parts-only-from-server',
      comment:
        'src/server/ holds the parts src/server.ts starts (services, HTTP, database, shutdown): only src/server.ts ' +
        'and those parts import them; the command line starts the server through src/server.ts',
      severity: 'error',
      from: { pathNot: server },
      to: { path: '^src/server/' },
    },
    {
      name: 'no-cycles',
      comment: 'generated code (Prisma client) is exempt: nothing of ours is in its cycles',
      severity: 'error',
      from: { path: ['^src/', engine], pathNot: '/generated/' },
      to: { circular: true },
    },
    {
      name: 'viewer-imports-engine-only',
      comment:
        'the browser viewer (src/viewer) talks to the server only through GraphQL: of ours it imports the pure engine ' +
        '(the package) alone',
      severity: 'error',
      from: { path: '^src/viewer/' },
      to: { path: '^src/', pathNot: '^src/viewer/' },
    },
    {
      name: 'nothing-imports-the-viewer',
      comment: 'the viewer is a separate browser bundle: the service and the engine never import it',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/viewer/' },
      to: { path: '^src/viewer/' },
    },
    {
      name: 'no-source-to-tests',
      severity: 'error',
      from: { path: ['^src/', engine] },
      to: { path: '^(test|bench|scripts|packages/engine/(test|scripts))/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs'] },
  },
};
