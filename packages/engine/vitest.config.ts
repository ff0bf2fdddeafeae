import { defineConfig } from 'vitest/config';

/**
 * The engine's tests (test/ mirrors src/), with their shared helpers in test/support (the
 * reference BFS and Betza reader, the harness comparing the engine with them, heavy questions).
 * They run from the TypeScript source, no build needed, except the package tests
 * (index.package, index.require), which check the built dist/. The root's `npm test` runs this
 * project beside the service's (the root vitest.config.ts names it); here `npm test` runs it alone.
 */
export default defineConfig({
  test: {
    name: 'engine',
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
