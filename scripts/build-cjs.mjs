/**
 * Builds the CommonJS form of the engine for `require('chess-paths')` (the package's
 * `exports["."].require`), run by `npm run build` after tsc:
 * - dist/engine.cjs: src/engine/index.ts bundled by esbuild, with its dependencies
 *   (@noble/hashes, ESM only, and chess.js), for Node 20, their licence notices kept at the end
 *   (chess.js's BSD-2-Clause licence asks that its notice stay with every copy);
 * - dist/engine/*.d.cts: its types, tsc's dist/engine/*.d.ts with relative imports renamed
 *   `.js` -> `.cjs`, so TypeScript reads them as CommonJS declarations (a `.d.cts` that
 *   re-exported the ESM `.d.ts` would fail under `moduleResolution: node16`).
 * `import` keeps using dist/engine/index.js.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, 'dist');

await build({
  entryPoints: [join(root, 'src', 'engine', 'index.ts')],
  outfile: join(dist, 'engine.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  legalComments: 'eof',
  logLevel: 'warning',
});

const types = join(dist, 'engine');
const declarations = readdirSync(types).filter((name) => name.endsWith('.d.ts'));
if (!declarations.includes('index.d.ts')) throw new Error('dist/engine/index.d.ts missing: run tsc first');
for (const name of declarations) {
  const text = readFileSync(join(types, name), 'utf8').replace(
    /(\bfrom\s+|\bimport\s*\(\s*)(['"])(\.\.?\/[^'"]*)\.js\2/g,
    '$1$2$3.cjs$2',
  );
  writeFileSync(join(types, name.replace(/\.d\.ts$/, '.d.cts')), text);
}
console.log(`engine: dist/engine.cjs, ${declarations.length} dist/engine/*.d.cts`);
