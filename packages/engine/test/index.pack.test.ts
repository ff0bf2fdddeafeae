/**
 * What `npm pack` puts in the package's tarball: the built dist/ (ES modules, the CommonJS
 * bundle, their declarations), the README, the licence and package.json; no source, no tests,
 * no source maps (they point at sources the tarball does not carry). Runs `npm pack --dry-run`
 * without its scripts, so it reads the dist/ of the last build (the root's `npm test` builds
 * first) and builds nothing.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

describe("the package's tarball", () => {
  it('carries dist, README.md, LICENSE and package.json, nothing else', () => {
    const run = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const [pack] = JSON.parse(run.stdout) as [{ name: string; files: { path: string }[] }];
    expect(pack.name).toBe('@chess-paths/engine');
    const files = pack.files.map((f) => f.path);
    for (const file of ['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.d.ts']) {
      expect(files).toContain(file);
    }
    for (const file of ['dist/index.cjs', 'dist/index.d.cts', 'dist/generated/fill64-wasm.js']) {
      expect(files).toContain(file);
    }
    const others = files.filter((f) => !f.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE'].includes(f));
    expect(others).toEqual([]);
    expect(files.filter((f) => !/\.(js|cjs|d\.ts|d\.cts)$/.test(f) && f.startsWith('dist/'))).toEqual([]);
  });
});
