import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Table } from '@comanda/contract';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { scriptSafeJson } from '../src/http/boot.ts';

/** A built web app in miniature: the shell and a Vite manifest naming each home's chunks. */
function fakeWebDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'comanda-boot-'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><head><script type="module" crossorigin src="/assets/index.js"></script></head><body><div id="root"></div>' +
      '<template data-skeleton-for="waiter">\n  <div data-skeleton>\n    <span class="font-bold" data-slot="name">Sistema POS</span>\n  </div>\n</template>' +
      '<template data-skeleton-for="kitchen"><div data-skeleton class="kitchen"></div></template></body></html>',
  );
  mkdirSync(join(dir, 'assets'));
  // A script with the Brotli and gzip copies the build writes beside it (apps/web/vite.config.ts).
  const script = Buffer.from(`console.log(${JSON.stringify('comanda '.repeat(400))});`);
  writeFileSync(join(dir, 'assets', 'index.js'), script);
  writeFileSync(join(dir, 'assets', 'index.js.br'), brotliCompressSync(script));
  writeFileSync(join(dir, 'assets', 'index.js.gz'), gzipSync(script));
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  mkdirSync(join(dir, '.vite'));
  const chunk = (file: string, imports: string[] = []) => ({ file, imports });
  writeFileSync(
    join(dir, '.vite', 'manifest.json'),
    JSON.stringify({
      'index.html': { ...chunk('assets/index.js', ['_shared.js']), isEntry: true },
      '_shared.js': chunk('assets/shared.js'),
      'src/app/layouts/waiter-layout.tsx': chunk('assets/waiter-layout.js', ['_shared.js', '_offline.js']),
      '_offline.js': chunk('assets/offline.js'),
      'src/features/tables/waiter-home-page.tsx': chunk('assets/waiter-home.js', ['_shared.js']),
    }),
  );
  return dir;
}

const BOOT = /<script type="application\/json" id="comanda-boot">(.*?)<\/script>/s;

describe.each(testDatabaseKinds())('first visit HTML on %s', (kind) => {
  let server: TestServer;
  let dist: string;
  let waiter: ApiClient;
  let waiter2: ApiClient;
  let kitchen: ApiClient;

  beforeAll(async () => {
    dist = fakeWebDist();
    server = await startTestServer(kind, { webDist: dist });
    waiter = await server.login(server.users.waiter.email);
    waiter2 = await server.login(server.users.waiter2.email);
    kitchen = await server.login(server.users.kitchen.email);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const page = async (path: string, cookie: string | null) => {
    const res = await fetch(`${server.url}${path}`, { headers: cookie ? { cookie } : {} });
    const html = await res.text();
    const boot = BOOT.exec(html)?.[1];
    type Boot = { user: { id: string; role: string }; tables?: Table[]; generalConfig?: unknown; sharedDevice?: unknown };
    return { res, html, boot: boot === undefined ? null : (JSON.parse(boot) as Boot) };
  };

  it("carries the signed-in waiter and the tables as /api/tables answers them, preloads the home's own chunks, never stored", async () => {
    const { res, html, boot } = await page('/waiter/home', waiter.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(boot?.user.id).toBe(server.users.waiter.id);
    const api = (await waiter.get<{ tables: Table[] }>('/api/tables')).body.tables;
    expect(boot?.tables).toEqual(api);
    expect(api.length).toBeGreaterThan(0);
    // The layout's and the screen's chunks, not those the entry already loads.
    const preloads = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
    expect(preloads.sort()).toEqual(['/assets/offline.js', '/assets/waiter-home.js', '/assets/waiter-layout.js']);
  });

  it('carries the business information and the shared-device state as their endpoints answer them', async () => {
    const { boot } = await page('/waiter/home', waiter.cookie);
    expect(boot?.generalConfig).toEqual((await waiter.get('/api/config/general')).body);
    expect(boot?.sharedDevice).toEqual((await waiter.get('/api/shared-devices/current')).body);
    // The kitchen's layout shows no business information: only the shared-device state.
    const kitchenPage = await page('/kitchen/cocina', kitchen.cookie);
    expect(kitchenPage.boot?.generalConfig).toBeUndefined();
    expect(kitchenPage.boot?.sharedDevice).toEqual((await kitchen.get('/api/shared-devices/current')).body);
  });

  it("each session gets its own user: another waiter's HTML never carries the first one's", async () => {
    const first = await page('/waiter/home', waiter.cookie);
    const second = await page('/waiter/home', waiter2.cookie);
    expect(first.boot?.user.id).toBe(server.users.waiter.id);
    expect(second.boot?.user.id).toBe(server.users.waiter2.id);
    expect(second.html).not.toContain(server.users.waiter.id);
  });

  it('signed out, a bad cookie or the static /index.html: the bare shell, no data', async () => {
    for (const [path, cookie] of [
      ['/waiter/home', null],
      ['/waiter/home', 'comanda_session=not-a-session'],
    ] as const) {
      const { res, html, boot } = await page(path, cookie);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(boot).toBeNull();
      expect(html).not.toContain('modulepreload');
    }
    // The file the service worker precaches is served as it was built, even with a session.
    const file = await page('/index.html', waiter.cookie);
    expect(file.boot).toBeNull();
  });

  /** The raw response (fetch would decompress it and hide the encoding). */
  const raw = (path: string, acceptEncoding?: string) =>
    new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      const req = request(`${server.url}${path}`, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });

  it('sends the compressed copy the browser accepts, the plain file to one that accepts none, and keeps hashed assets a year', async () => {
    const plain = await raw('/assets/index.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await raw('/assets/index.js', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.body.length).toBeLessThan(plain.body.length / 4);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gz = await raw('/assets/index.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    for (const res of [plain, br, gz]) {
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers.vary).toMatch(/accept-encoding/i);
    }
    // Outside /assets/ the names carry no hash: an hour, as before.
    expect((await raw('/favicon.svg', 'br')).headers['cache-control']).toBe('public, max-age=3600');
  });

  const ROOT = /<div id="root">(.*?)<\/div><script type="application\/json"/s;

  it("paints the signed-in home's skeleton from the HTML, with the business name; never for another role, signed out or in the static file", async () => {
    const admin = await server.login(server.users.admin.email);
    await admin.put('/api/config/general', { name: 'Cantina <b>"La Única" & Co.</b>', logoUrl: '', address: '', phone: '' });
    const { html } = await page('/waiter/home', waiter.cookie);
    expect(ROOT.exec(html)?.[1]).toBe(
      '<div data-skeleton><span class="font-bold" data-slot="name">Cantina &lt;b&gt;"La Única" &amp; Co.&lt;/b&gt;</span></div>',
    );
    // The templates themselves are not sent: only the home's own skeleton, inside #root.
    expect(html).not.toContain('<template');
    expect((await page('/kitchen/barra', kitchen.cookie)).html).toContain('<div id="root"><div data-skeleton class="kitchen"></div></div>');
    // The kitchen on the waiter's home, a screen that is not a home, signed out: an empty #root.
    for (const [path, cookie] of [
      ['/waiter/home', kitchen.cookie],
      ['/waiter/order/1', waiter.cookie],
      ['/waiter/home', null],
    ] as const)
      expect((await page(path, cookie)).html).toContain('<div id="root"></div>');
    // The static file keeps its inert templates and an empty #root.
    const file = await page('/index.html', waiter.cookie);
    expect(file.html).toContain('<div id="root"></div><template data-skeleton-for="waiter">');
  });

  it('the role guard holds: the kitchen opening the waiter home gets its user but no tables', async () => {
    const { boot, html } = await page('/waiter/home', kitchen.cookie);
    expect(boot?.user.role).toBe('kitchen');
    expect(boot?.tables).toBeUndefined();
    expect(html).not.toContain('modulepreload');
    expect((await kitchen.get('/api/tables')).status).toBe(403);
  });

  it('a name that tries to close the script element stays inside the JSON', async () => {
    const evil = '</script><script>alert(1)</script><!--';
    await server.ctx.db.db.updateTable('users').set({ display_name: evil }).where('id', '=', server.users.waiter2.id).execute();
    const { html, boot } = await page('/waiter/home', waiter2.cookie);
    expect(html.match(/<\/script>/g)?.length).toBe(2); // the entry's and the data block's own
    expect(html).not.toContain('<script>alert');
    expect(boot?.user).toMatchObject({ id: server.users.waiter2.id });
    expect((boot?.user as { displayName?: string }).displayName).toBe(evil);
  });
});

describe('scriptSafeJson', () => {
  it('escapes what could end a script element or a line, and parses back to the same value', () => {
    const value = { a: '</script><!-- & >', b: 'línea\u2028nueva\u2029' };
    const text = scriptSafeJson(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});
