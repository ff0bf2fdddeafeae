/**
 * Builds the playground's files into dist/playground. `@graphql-yoga/render-graphiql` ships
 * GraphiQL already bundled, as strings (its script, its style, and Monaco's three editor workers)
 * that its `renderGraphiQL` inlines into one 9 MB page, which a browser downloads and parses again
 * on every visit. Here each piece becomes a file named by its content hash
 * (`graphiql-<hash>.js`, `graphiql-<hash>.css`, `editor-worker-<hash>.js`, `json-worker-<hash>.js`,
 * `graphql-worker-<hash>.js`), so the server can let browsers keep it for a year, with a Brotli
 * (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside it: compressed once, here, and never
 * per request. `manifest.json` names the files for the server (`src/graphql/apollo/playground.ts`
 * renders the small page that loads them; `src/http/playground-route.ts` serves them).
 *
 * Nothing is bundled again (the package's build is used as it is) and the package's favicon, a
 * 150 KB data URL, is left out: the page uses the server's own /favicon.svg. Brotli at quality 11
 * takes about half a minute for these 8.8 MB, so a file whose name (its hash) is already there with
 * both copies is kept as it is: the cost is paid once per version of the package. Run by
 * `npm run build` after the viewer's build.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import * as graphiql from '@graphql-yoga/render-graphiql/graphiql';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, 'dist', 'playground');
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** The pieces, by the name the manifest gives them (the workers by Monaco's labels). */
const pieces = {
  script: { base: 'graphiql', ext: '.js', text: graphiql.js },
  style: { base: 'graphiql', ext: '.css', text: graphiql.css },
  editorWorkerService: { base: 'editor-worker', ext: '.js', text: graphiql.editorWorkerService },
  json: { base: 'json-worker', ext: '.js', text: graphiql.jsonWorker },
  graphql: { base: 'graphql-worker', ext: '.js', text: graphiql.graphqlWorker },
};

/** Writes one piece with its compressed copies (unless they are there); resolves to its file name. */
async function write({ base, ext, text }) {
  if (typeof text !== 'string' || text.length === 0) {
    throw new Error(`@graphql-yoga/render-graphiql no longer exports the ${base}${ext} piece: see this script`);
  }
  const body = Buffer.from(text);
  const name = `${base}-${createHash('sha256').update(body).digest('hex').slice(0, 16)}${ext}`;
  const file = join(out, name);
  if (![file, `${file}.br`, `${file}.gz`].every((path) => existsSync(path))) {
    const [br, gz] = await Promise.all([
      brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
      gzipped(body, { level: 9 }),
    ]);
    // The copies first, the file last: a file is only taken as done when all three are there.
    writeFileSync(`${file}.br`, br);
    writeFileSync(`${file}.gz`, gz);
    writeFileSync(file, body);
  }
  return name;
}

mkdirSync(out, { recursive: true });
const entries = await Promise.all(Object.entries(pieces).map(async ([key, piece]) => [key, await write(piece)]));
const names = Object.fromEntries(entries);
const manifest = {
  script: names.script,
  style: names.style,
  workers: { editorWorkerService: names.editorWorkerService, json: names.json, graphql: names.graphql },
};
writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

// Files of an older version of the package go: dist/ holds only what the manifest names.
const kept = new Set(['manifest.json', ...entries.flatMap(([, name]) => [name, `${name}.br`, `${name}.gz`])]);
for (const name of readdirSync(out)) if (!kept.has(name)) rmSync(join(out, name), { force: true });
console.log(`playground: dist/playground/${Object.values(names).join(', ')} (.br, .gz), manifest.json`);
