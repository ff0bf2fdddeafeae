/**
 * `require('@chess-paths/engine')` works as well as `import`: from a project that depends on the
 * package (a temporary directory with node_modules/@chess-paths/engine linked to this package, so
 * Node resolves the name through package.json `exports`), CommonJS gets dist/index.cjs and ESM
 * gets dist/index.js, with the same answers. Checks the built output: the root's `npm test`
 * builds first.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
let project: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'chess-paths-user-'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'user', private: true }));
  mkdirSync(join(project, 'node_modules', '@chess-paths'), { recursive: true });
  symlinkSync(root, join(project, 'node_modules', '@chess-paths', 'engine'), 'dir');
});

afterAll(() => rmSync(project, { recursive: true, force: true }));

/** Runs `script` with Node in the user's project; returns its output parsed as JSON. */
function run(script: string, type: 'commonjs' | 'module'): unknown {
  const child = spawnSync(process.execPath, [`--input-type=${type}`, '-e', script], { cwd: project, encoding: 'utf8' });
  expect(child.stderr).toBe('');
  expect(child.status).toBe(0);
  return JSON.parse(child.stdout);
}

const seed = `
  const r = cp.solve({ piece: 'KING', from: ['e4'], to: ['a1', 'h8'] });
  const first = r.paths({ first: 1 }).edges[0];
  const out = {
    distance: r.distance,
    pathCount: String(r.pathCount),
    key: r.key,
    cursor: first.cursor,
    next: r.paths({ first: 1, after: first.cursor }).edges[0].node.squares,
    inputError: (() => { try { cp.solve({ piece: 'KING', from: ['z9'], to: ['a1'] }); } catch (e) { return e instanceof cp.InputError; } })(),
  };
`;
const expected = {
  distance: 4,
  pathCount: '8',
  key: 'e7ced073e3813fe89796944f0b1af7311ddd61d202bf2aacd17885d864421424',
  cursor: 'cGF0aDoyOC4xOS4xMC4xLjA',
  next: ['e4', 'd3', 'c2', 'b2', 'a1'],
  inputError: true,
};

describe('the package from CommonJS and ESM', () => {
  it('require() gets the CommonJS bundle', () => {
    const out = run(
      `const cp = require('@chess-paths/engine');${seed}
      out.file = require('node:path').relative(require('node:fs').realpathSync(require.resolve('@chess-paths/engine/package.json') + '/..'), require.resolve('@chess-paths/engine'));
      console.log(JSON.stringify(out));`,
      'commonjs',
    );
    expect(out).toEqual({ ...expected, file: 'dist/index.cjs' });
  });

  it('import gets the ES modules, with the same answers', () => {
    const out = run(
      `import * as cp from '@chess-paths/engine';${seed}
      out.file = import.meta.resolve('@chess-paths/engine').split('/').slice(-2).join('/');
      console.log(JSON.stringify(out));`,
      'module',
    );
    expect(out).toEqual({ ...expected, file: 'dist/index.js' });
  });
});
