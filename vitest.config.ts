import { defineConfig } from 'vitest/config';

// The project's own tests (engine, specs, reporters, reference implementation). The conformance
// suites in suites/ are not run from here: `storefront-conformance run` starts them against a target.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'reference-impl/test/**/*.test.ts'],
    exclude: ['test/report/**', '**/node_modules/**'],
    pool: 'forks',
    // Reference servers in tests hash at a low scrypt cost (throwaway databases).
    env: { SFC_REFERENCE_HASH_COST: '1024' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    sequence: { concurrent: false },
  },
});
