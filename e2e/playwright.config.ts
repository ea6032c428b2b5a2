import { defineConfig, devices } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Chosen once in the main process; workers inherit the environment, so all agree on the port.
// 4400–4799 (and +1 for the card simulator): clear of the ports other services on the machine use (4222, 4369, 5432…).
process.env.E2E_PORT ??= String(4400 + Math.floor(Math.random() * 399));
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'comanda-e2e-'));
const port = Number(process.env.E2E_PORT);
const dataDir = process.env.E2E_DATA_DIR;
/** The built web app: one build shared by every shard of a run (scripts/test.mjs), or this run's own. */
const webDist = process.env.E2E_WEB_DIST ?? join(dataDir, 'web');
const buildWeb = process.env.E2E_WEB_DIST ? '' : `npx vite build apps/web --outDir ${webDist} --emptyOutDir --logLevel warn && `;
/**
 * Where users are: the waiters' phones open the server by a LAN name over plain http, an
 * insecure context (no crypto.randomUUID, clipboard, service workers…). Chromium resolves the
 * name to loopback, so traffic never leaves the machine, yet the page is not "potentially
 * trustworthy" the way localhost is. The Node side (webServer health check, API helpers that
 * run outside the browser) keeps using 127.0.0.1: it cannot resolve the name.
 */
export const LAN_HOST = 'comanda.lan';
export const baseURL = `http://${LAN_HOST}:${port}`;
export const loopbackURL = `http://127.0.0.1:${port}`;

/**
 * The Chromium features this suite's browser runs without. Chromium 156 opens two WebUI omnibox
 * popups (chrome://omnibox-popup.top-chrome) in every new window, a renderer each, never shown
 * headless: a quarter of the suite's time. Chromium keeps only the last --disable-features, so
 * Playwright's own list (its chromiumSwitches.ts) comes first; browser-flags.spec.ts checks both.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];
const DISABLED_FEATURES = [...PLAYWRIGHT_DISABLED_FEATURES, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

/** The flags of every browser the suite starts (the machine's Chromium). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  // One renderer per new page instead of two: without it every new page's first blank document and
  // the app each took a process (~10 % of the suite's CPU, measured on three spec files).
  '--disable-site-isolation-trials',
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
];

export const chromiumLaunch = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${LAN_HOST} 127.0.0.1`],
};

export default defineConfig({
  testDir: './tests',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  // Two shards share two cores in CI: a test may get twice the time it needs alone or more.
  timeout: process.env.CI ? 120_000 : 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: join(dataDir, 'results.json') }]],
  use: {
    baseURL,
    locale: 'es-MX',
    timezoneId: 'America/Mexico_City',
    // A trace records a screencast of every paint: on every test it cost ~40 % of the suite's time
    // on two cores. Only a retry (CI retries once) records one, so a failure still leaves its trace.
    trace: 'on-first-retry',
    launchOptions: chromiumLaunch,
  },
  projects: [
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 }, launchOptions: chromiumLaunch },
    },
  ],
  webServer: {
    // The real server on its own port and database, serving the built web app.
    command: `${buildWeb}npx tsx apps/server/src/main.ts`,
    cwd: '..',
    url: `${loopbackURL}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      // E2E_DATABASE_URL: an empty PostgreSQL database to run the specs on instead (on demand, README.md).
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? `sqlite:${join(dataDir, 'pos.db')}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DEMO_DATA: 'auto',
      E2E: '1',
      // Every answer is checked against its route's response schema (in service it is not).
      CHECK_RESPONSES: 'on',
      WEB_DIST: webDist,
      // Card payments: the demo simulator on a known port (card.spec.ts steers it), quick polls.
      MP_SIMULATOR_PORT: String(port + 1),
      MP_POLL_MS: '500',
      MP_DEMO_APPROVE_MS: '1500',
      // Printing: the emulated printers (demo mode) retry quickly and raise the alert after 3 s (printing.spec.ts).
      PRINT_RETRY_MAX_MS: '2000',
      PRINT_ALERT_MS: '3000',
    },
  },
});
