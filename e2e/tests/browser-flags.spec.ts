import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test, expect } from './fixtures.ts';
import { PLAYWRIGHT_DISABLED_FEATURES } from '../playwright.config.ts';

/** The features the installed Playwright disables by default, read from its own source. */
function playwrightDisabledFeatures(): string[] {
  const root = dirname(createRequire(import.meta.url).resolve('playwright-core/package.json'));
  const file = [join(root, 'lib', 'coreBundle.js'), join(root, 'lib', 'server', 'chromium', 'chromiumSwitches.js')].find(existsSync);
  if (!file) throw new Error('playwright-core: its Chromium switches were not found');
  const source = readFileSync(file, 'utf8');
  const list = /disabledFeatures\s*=\s*\[([\s\S]*?)\]/.exec(source)?.[1];
  if (!list) throw new Error(`playwright-core: no disabledFeatures list in ${file}`);
  return [...list.matchAll(/"([A-Za-z0-9]+)"/g)].map((m) => m[1]!);
}

test.describe('the browser the suite drives', () => {
  test('keeps every feature Playwright turns off, since its own --disable-features replaces Playwright’s', () => {
    const theirs = playwrightDisabledFeatures();
    expect(theirs.length).toBeGreaterThan(5);
    expect(theirs.filter((f) => !PLAYWRIGHT_DISABLED_FEATURES.includes(f))).toEqual([]);
  });

  test('opens a window without the hidden omnibox popups: only the page itself is a target', async ({ browser, page }) => {
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();
    const cdp = await browser.newBrowserCDPSession();
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { type: string; url: string }[] };
    await cdp.detach();
    expect(targetInfos.filter((t) => t.type !== 'page').map((t) => `${t.type} ${t.url}`)).toEqual([]);
    expect(targetInfos.some((t) => t.url.endsWith('/login'))).toBe(true);
  });
});
