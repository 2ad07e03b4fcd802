// End-to-end tests of the whole app: the real CLI makes checkpoints, the real
// browser host serves the built renderer, a real Chromium drives it. Debian's
// /usr/bin/chromium is used where present (Playwright's own browser download
// is not reachable on these machines). Run `npm run build` first.
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { defineConfig } from '@playwright/test';

const systemChromium = '/usr/bin/chromium';

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: './artifacts/test-results',
  globalSetup: './global-setup.ts',
  reporter: [['list']],
  // Each test starts its own server and store; on small machines one at a time keeps them honest.
  workers: cpus().length <= 2 ? 1 : 2,
  fullyParallel: false,
  retries: 0,
  forbidOnly: !!process.env['CI'],
  // Generous: real git, real processes, a cold Monaco. These are limits, not assertions about speed.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  use: {
    headless: true,
    viewport: { width: 1440, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      ...(existsSync(systemChromium) ? { executablePath: systemChromium } : {}),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
});
