import { spawnSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { freePort, REPO_ROOT, spawnTsProcess, type TsProcess } from '../../apps/server/src/testing/process.ts';
import { test, expect, ACCOUNTS, PASSWORD } from './fixtures.ts';
import { CHROMIUM_ARGS } from '../playwright.config.ts';

/**
 * HTTPS with the local CA, and the installable app. This spec starts its own server (HTTPS=on,
 * free ports, its own data folder) and its own Chromium, told to trust the server's CA by its
 * public key (--ignore-certificate-errors-spki-list): no certificate error is skipped any other way.
 * It reuses the web build the global webServer serves (E2E_WEB_DIST, or E2E_DATA_DIR/web), or builds one itself.
 */

/** The real server with demo data on `httpPort`, ready once /api/health answers. */
function startServer(env: Record<string, string>, httpPort: number): Promise<TsProcess> {
  return spawnTsProcess('apps/server/src/main.ts', { DEMO_DATA: 'auto', ...env }, httpPort, '/api/health');
}

/** base64 SHA-256 of a certificate's SubjectPublicKeyInfo: what Chromium's SPKI allow-list takes. */
function spkiHash(pem: string): string {
  const der = new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64');
}

function webBuild(scratch: string): string {
  const shared = process.env.E2E_WEB_DIST ?? (process.env.E2E_DATA_DIR ? join(process.env.E2E_DATA_DIR, 'web') : '');
  if (shared && existsSync(join(shared, 'sw.js'))) return shared;
  const out = join(scratch, 'web-build');
  const result = spawnSync('npx', ['vite', 'build', 'apps/web', '--outDir', out, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: REPO_ROOT,
  });
  if (result.status !== 0) throw new Error(`web build failed: ${String(result.stderr)}`);
  return out;
}

/** The same build as a "new version": a changed index.html, and a service worker that precaches it. */
function newVersionOf(dist: string, into: string): string {
  cpSync(dist, into, { recursive: true });
  const indexPath = join(into, 'index.html');
  const html = readFileSync(indexPath, 'utf8').replace('<head>', '<head>\n    <meta name="comanda-version" content="2" />');
  writeFileSync(indexPath, html);
  const revision = createHash('md5').update(html).digest('hex');
  const swPath = join(into, 'sw.js');
  const sw = readFileSync(swPath, 'utf8').replace(
    /\{url:"index\.html",revision:"[0-9a-f]+"\}/,
    `{url:"index.html",revision:"${revision}"}`,
  );
  if (!sw.includes(revision)) throw new Error('sw.js has no index.html precache entry to update');
  writeFileSync(swPath, sw);
  return into;
}

test.describe.configure({ mode: 'serial' });

test.describe('HTTPS on the LAN and the installable app', () => {
  let scratch: string;
  let dist: string;
  let dataDir: string;
  let httpPort: number;
  let httpsPort: number;
  let server: TsProcess;
  let browser: Browser;
  let context: BrowserContext;
  let origin: string;

  const serverEnv = (webDist: string) => ({
    HTTPS: 'on',
    HTTPS_PORT: String(httpsPort),
    DATA_DIR: dataDir,
    DATABASE_URL: `sqlite:${join(dataDir, 'pos.db')}`,
    WEB_DIST: webDist,
  });

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    scratch = mkdtempSync(join(tmpdir(), 'comanda-https-e2e-'));
    dataDir = join(scratch, 'data');
    dist = webBuild(scratch);
    httpPort = await freePort();
    httpsPort = await freePort();
    server = await startServer(serverEnv(dist), httpPort);
    const ca = readFileSync(join(dataDir, 'tls', 'ca.crt'), 'utf8');
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [...CHROMIUM_ARGS, `--ignore-certificate-errors-spki-list=${spkiHash(ca)}`, '--host-resolver-rules=MAP comanda.test 127.0.0.1'],
    });
    context = await browser.newContext({ locale: 'es-MX', timezoneId: 'America/Mexico_City', viewport: { width: 1280, height: 800 } });
    origin = `https://localhost:${httpsPort}`;
  });

  test.afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  async function signIn(page: Page, base: string): Promise<void> {
    await page.goto(`${base}/login`);
    await page.getByLabel('Correo electrónico').fill(ACCOUNTS.admin.email);
    await page.getByLabel('Contraseña').fill(PASSWORD);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page).not.toHaveURL(/\/login/);
  }

  test('loads over HTTPS with no certificate error, registers the service worker and is installable', async () => {
    const page = await context.newPage();
    const response = await page.goto(`${origin}/login`);
    expect(response?.status()).toBe(200);
    expect(await page.evaluate(() => window.isSecureContext)).toBe(true);
    await expect(page.getByLabel('Correo electrónico')).toBeVisible();

    const scriptURL = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL ?? '');
    expect(scriptURL).toBe(`${origin}/sw.js`);

    const cdp = await context.newCDPSession(page);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[]; data?: string };
    expect(manifest.url).toBe(`${origin}/manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
    const data = JSON.parse(manifest.data ?? '{}') as { name?: string; start_url?: string; display?: string; icons?: { sizes: string }[] };
    expect(data.name).toBeTruthy();
    expect(data.start_url).toBe('/');
    expect(data.display).toBe('standalone');
    expect((data.icons ?? []).map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    // The icons the manifest names are really there.
    for (const size of ['192', '512']) {
      const icon = await page.evaluate(async (url) => {
        const res = await fetch(url);
        return { status: res.status, type: res.headers.get('content-type') };
      }, `/icons/icon-${size}.png`);
      expect(icon).toEqual({ status: 200, type: 'image/png' });
    }
    const installability = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
    // Playwright's contexts are incognito ones, where Chromium never offers installing; nothing else may be missing.
    expect(installability.installabilityErrors.filter((e) => e.errorId !== 'in-incognito')).toEqual([]);
    await page.close();
  });

  test('starts offline from the cache, with the catalogue, and caches no other API response', async () => {
    const page = await context.newPage();
    await signIn(page, origin);
    await page.evaluate(async () => navigator.serviceWorker.ready);
    // Controlled from this load on: the catalogue goes through the service worker. On a busy
    // machine the screen may ask for it after the network has been idle a while, and the worker
    // stores it after it answers: wait for the answer, then for the cache.
    const catalogue = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/products' && r.status() === 200);
    await page.goto(`${origin}/admin/manage-products`);
    await catalogue;
    const cachedPaths = () =>
      page.evaluate(async () => {
        const urls: string[] = [];
        for (const name of await caches.keys())
          for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
        return urls;
      });
    await expect.poll(cachedPaths, { timeout: 10_000 }).toContain('/api/products');
    await page.waitForLoadState('networkidle');
    expect((await cachedPaths()).filter((p) => p.startsWith('/api/') && p !== '/api/products')).toEqual([]);

    await context.setOffline(true);
    try {
      await page.reload();
      await expect(page.locator('#root')).not.toBeEmpty();
      const offlineCatalogue = await page.evaluate(async () => {
        const res = await fetch('/api/products');
        return { status: res.status, count: ((await res.json()) as { products: unknown[] }).products.length };
      });
      expect(offlineCatalogue.status).toBe(200);
      expect(offlineCatalogue.count).toBeGreaterThan(0);
      // Any other API call fails offline instead of answering from a cache.
      expect(
        await page.evaluate(() =>
          fetch('/api/tables').then(
            () => 'answered',
            () => 'failed',
          ),
        ),
      ).toBe('failed');
    } finally {
      await context.setOffline(false);
    }
    await page.close();
  });

  test('offers "Actualizar" when a new version is deployed, and then shows the new HTML', async () => {
    test.setTimeout(120_000);
    const page = await context.newPage();
    await page.goto(`${origin}/login`);
    await page.evaluate(async () => navigator.serviceWorker.ready);
    expect(await page.locator('meta[name="comanda-version"]').count()).toBe(0);

    await server.stop();
    server = await startServer(serverEnv(newVersionOf(dist, join(scratch, 'web-v2'))), httpPort);
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());

    const prompt = page.getByRole('alert').filter({ hasText: 'Hay una nueva versión disponible' });
    await expect(prompt).toBeVisible({ timeout: 30_000 });
    // Until accepted, the old version stays whole.
    await page.reload();
    expect(await page.locator('meta[name="comanda-version"]').count()).toBe(0);
    await expect(prompt).toBeVisible({ timeout: 30_000 });

    await Promise.all([page.waitForEvent('load'), prompt.getByRole('button', { name: 'Actualizar' }).click()]);
    await expect(page.locator('meta[name="comanda-version"]')).toHaveAttribute('content', '2');
    await page.reload();
    await expect(page.locator('meta[name="comanda-version"]')).toHaveAttribute('content', '2');
    await expect(page.getByRole('alert').filter({ hasText: 'Hay una nueva versión disponible' })).toHaveCount(0);
    await page.close();
  });

  test('over plain HTTP on a LAN name the app works without a service worker, also after an HTTPS sign-in', async () => {
    const lan = await browser.newContext({ locale: 'es-MX', viewport: { width: 1280, height: 800 } });
    const page = await lan.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const base = `http://comanda.test:${httpPort}`;
    // This browser signed in over HTTPS on the same host first: its Secure cookie must not lock the HTTP login out.
    await signIn(page, `https://comanda.test:${httpsPort}`);
    await signIn(page, base);
    await expect(page).toHaveURL(new RegExp(`^${base}/admin/`));
    expect(await page.evaluate(() => ({ secure: window.isSecureContext, sw: 'serviceWorker' in navigator }))).toEqual({
      secure: false,
      sw: false,
    });
    // The CA is downloadable here, before the phone trusts anything.
    const ca = await page.evaluate(async () => {
      const res = await fetch('/ca.crt');
      return { status: res.status, type: res.headers.get('content-type') };
    });
    expect(ca).toEqual({ status: 200, type: 'application/x-x509-ca-cert' });
    expect(errors).toEqual([]);
    await lan.close();
  });

  test('Configuración › Conectar dispositivos shows the addresses, why there is no QR code, the HTTPS address and the CA', async () => {
    const fresh = await browser.newContext({ locale: 'es-MX', timezoneId: 'America/Mexico_City', viewport: { width: 1440, height: 900 } });
    const page = await fresh.newPage();
    await signIn(page, origin);
    await page.goto(`${origin}/admin/settings`);
    await page.getByRole('tab', { name: 'Conectar dispositivos' }).click();
    // This server listens on 127.0.0.1 only: localhost is listed as text, and no phone could follow a QR code.
    const local = page.getByTestId('local-addresses');
    await expect(local.getByRole('link', { name: `http://localhost:${httpPort}` })).toBeVisible();
    await expect(local.getByRole('link', { name: `https://localhost:${httpsPort}` })).toBeVisible();
    await expect(
      page.getByRole('status').filter({ hasText: 'El servidor solo acepta conexiones de esta misma computadora' }),
    ).toContainText('no hay código QR');
    await expect(page.getByRole('img', { name: /^Código QR de / })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Descargar certificado (ca.crt)' })).toHaveAttribute('href', '/ca.crt');
    await expect(page.getByText('iPhone y iPad')).toBeVisible();
    await page.screenshot({ path: join(tmpdir(), 'comanda-conectar-dispositivos.png') });
    await fresh.close();
  });
});
