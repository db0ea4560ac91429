import { defineConfig } from 'vitest/config';

// Checks of the report directory that `npm run self-test` just wrote (see test/report/).
export default defineConfig({
  test: { include: ['test/report/**/*.test.ts'], pool: 'forks' },
});
