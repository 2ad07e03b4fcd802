import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Real git and real processes: generous per-test limits, not speed assertions.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    globalSetup: ['tests/global-setup.ts'],
    // Hook processes in tests start no background service (it would outlive the test and watch its
    // folders); the daemon's own tests turn it on where they mean to.
    env: { CHRONOSCOPE_DAEMON: '0' },
  },
});
