/**
 * Builds the CommonJS form of the engine for `require('@chess-paths/engine')` (the package's
 * `exports["."].require`), run by `npm run build` after tsc:
 * - dist/index.cjs: src/index.ts bundled by esbuild, with its dependencies (@noble/hashes, ESM
 *   only, and chess.js), for Node 20, their licence notices kept at the end (chess.js's
 *   BSD-2-Clause licence asks that its notice stay with every copy);
 * - dist/*.d.cts: its types, tsc's dist/*.d.ts with relative imports renamed `.js` -> `.cjs`,
 *   so TypeScript reads them as CommonJS declarations (a `.d.cts` that re-exported the ESM
 *   `.d.ts` would fail under `moduleResolution: node16`).
 * `import` keeps using dist/index.js.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, 'dist');

await build({
  entryPoints: [join(root, 'src', 'index.ts')],
  outfile: join(dist, 'index.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  legalComments: 'eof',
  logLevel: 'warning',
});

const declarations = [];
/** Every `.d.ts` under `dir` (tsc keeps src's folders, such as generated/). */
function collect(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) collect(path);
    else if (entry.name.endsWith('.d.ts')) declarations.push(path);
  }
}
collect(dist);
if (!declarations.includes(join(dist, 'index.d.ts'))) throw new Error('dist/index.d.ts missing: run tsc first');
for (const path of declarations) {
  const text = readFileSync(path, 'utf8').replace(
    /(\bfrom\s+|\bimport\s*\(\s*)(['"])(\.\.?\/[^'"]*)\.js\2/g,
    '$1$2$3.cjs$2',
  );
  writeFileSync(path.replace(/\.d\.ts$/, '.d.cts'), text);
}
console.log(`engine: dist/index.cjs, ${declarations.length} dist/**/*.d.cts`);
