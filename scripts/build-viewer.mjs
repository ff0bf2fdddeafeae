/**
 * Builds the viewer (src/viewer) into dist/viewer: type-checks it against the DOM library
 * (src/viewer/tsconfig.json), bundles main.ts and style.css with esbuild (minified, ES2020,
 * browser) under content-hashed names (`viewer-<hash>.js`, `viewer-<hash>.css`, cached for a year
 * by the server), and writes index.html pointing at them. Run by `npm run build` after tsc.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const src = join(root, 'src', 'viewer');
const out = join(root, 'dist', 'viewer');

execFileSync(
  process.execPath,
  [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(src, 'tsconfig.json')],
  {
    stdio: 'inherit',
  },
);

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const result = await build({
  entryPoints: { viewer: join(src, 'main.ts'), 'viewer-style': join(src, 'style.css') },
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2020',
  platform: 'browser',
  outdir: out,
  entryNames: '[name]-[hash]',
  metafile: true,
  legalComments: 'eof', // the licence notices of what is bundled stay with it
  logLevel: 'warning',
});

/** The output file of an entry point, by its extension. */
function output(ext) {
  const name = Object.keys(result.metafile.outputs).find((file) => file.endsWith(ext));
  if (!name) throw new Error(`esbuild wrote no ${ext} file`);
  return basename(name);
}

const html = readFileSync(join(src, 'index.html'), 'utf8')
  .replace('/viewer/viewer.css', `/viewer/${output('.css')}`)
  .replace('/viewer/viewer.js', `/viewer/${output('.js')}`);
writeFileSync(join(out, 'index.html'), html);
console.log(`viewer: dist/viewer/${output('.js')}, ${output('.css')}, index.html`);
