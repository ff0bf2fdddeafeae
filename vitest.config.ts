import { defineConfig } from 'vitest/config';

/**
 * Tests that need no server of ours (in-process or child) and no browser: the engine, the test
 * support's own tests, the configuration, the store (SQLite files in temporary directories, and
 * PostgreSQL when the machine's server answers) and the GraphQL modules tested in-process.
 * `npm run test:unit` runs these alone. Layout and rules: test/README.md.
 */
const UNIT = [
  'test/config.test.ts',
  'test/engine/**/*.test.ts',
  'test/support/**/*.test.ts',
  'test/store/**/*.test.ts',
  'test/graphql/cost.test.ts',
  'test/graphql/cost-inputs.test.ts',
  'test/graphql/cache-writer.test.ts',
  'test/graphql/work/dispatch.test.ts',
];

/** The cross-cutting end-to-end suite: hostile input, limits, access, SIGKILL durability, amplification. */
const HARDENING = ['test/hardening/**/*.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Every test file belongs to exactly one project; `vitest run` runs them all.
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT } },
      {
        extends: true,
        test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: [...UNIT, ...HARDENING] },
      },
      { extends: true, test: { name: 'hardening', include: HARDENING } },
    ],
  },
});
