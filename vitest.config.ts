import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The service's tests that need no server of ours (in-process or child) and no browser: the
 * configuration, the store (SQLite files in temporary directories, and PostgreSQL when the
 * machine's server answers) and the GraphQL modules tested in-process. `npm run test:unit` runs
 * these and the engine's. Layout and rules: test/README.md.
 */
const UNIT = [
  'test/config.test.ts',
  'test/store/**/*.test.ts',
  'test/graphql/limits/cost.test.ts',
  'test/graphql/limits/cost.games.test.ts',
  'test/graphql/limits/cost-inputs.test.ts',
  'test/graphql/caching/cache-writer.test.ts',
  'test/graphql/work/dispatch.*.test.ts',
  'test/graphql/work/pictures.test.ts',
];

/** The cross-cutting end-to-end suite: hostile input, limits, access, SIGKILL durability, amplification. */
const HARDENING = ['test/hardening/**/*.test.ts'];

export default defineConfig({
  test: {
    // Vitest runs one file less than the machine has cores; most of these files wait on child
    // servers, browsers and databases rather than compute, so on a 2-core machine two files at a
    // time keep both cores busy and take about half the time of one.
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Every test file belongs to exactly one project; `vitest run` runs them all. The engine's
    // tests (packages/engine/test) are the `engine` project, configured in the package itself.
    projects: [
      'packages/engine',
      { extends: true, test: { name: 'unit', include: UNIT } },
      {
        extends: true,
        test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: [...UNIT, ...HARDENING] },
      },
      { extends: true, test: { name: 'hardening', include: HARDENING } },
    ],
  },
});
