import { defineConfig } from 'vitest/config';

// The fault matrix as a test (npm run test:faults): minutes long, so not part of npm test.
export default defineConfig({
  test: {
    include: ['test/faults/**/*.spec.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    // The whole matrix runs in beforeAll: every fault against a fresh reference, on two lanes. About 13 min
    // here; CI's machine took over 30 min before the lanes (a suite process per fault), so the bound leaves room.
    hookTimeout: 60 * 60_000,
    sequence: { concurrent: false },
  },
});
