import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type ApiClient, type TestServer } from '../src/testing/index.ts';
import type { PrinterEmulator } from '../src/features/printing/emulator/emulator.ts';
import { freshOrder, printersEnv, productsByStation, startEmulators, waitFor } from './printing-helpers.ts';

/**
 * Printed jobs keep their rows (a week of "did it print?"), so on a long night the print_jobs
 * table holds thousands of them. Every statement the print path runs must find its rows by an
 * index: SQLite's plan for each, with the real statements recorded during real deliveries.
 */
describe('the print path reads print jobs by index (SQLite plans)', () => {
  let server: TestServer;
  let printers: Record<'cocina' | 'barra' | 'caja', PrinterEmulator>;
  let admin: ApiClient;
  let waiter: ApiClient;

  beforeAll(async () => {
    printers = await startEmulators();
    server = await startTestServer('sqlite', { env: { PRINTERS: printersEnv(printers), PRINT_ALERT_MS: '1000' } });
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    for (const p of Object.values(printers ?? {})) await p.stop();
  });

  it('no statement on print_jobs scans the whole table', async () => {
    const seen = new Set<string>();
    const before = server.ctx.db.onQuery;
    server.ctx.db.onQuery = (ms, text) => {
      if (/print_jobs/.test(text)) seen.add(text);
      before?.(ms, text);
    };
    try {
      const products = await productsByStation(server);
      const order = await freshOrder(admin, waiter);
      for (const p of [products.find((x) => x.station === 'cocina')!, products.find((x) => x.station === 'barra')!]) {
        expect((await waiter.post(`/api/orders/${order.id}/items`, { productId: p.id, quantity: 1 })).status).toBe(200);
      }
      await waitFor(() => printers.cocina.list().length >= 1 && printers.barra.list().length >= 1, 10_000, 'both comandas');
      // The alert check runs on the next scan: wait for one more.
      await new Promise((r) => setTimeout(r, 1500));
    } finally {
      server.ctx.db.onQuery = before;
    }
    // The worker's claim, read back, done and alert statements, and the add's own insert.
    expect(seen.size).toBeGreaterThanOrEqual(4);
    const file = server.ctx.db.url.slice('sqlite:'.length);
    const reader = new SQLite(file, { readonly: true });
    try {
      const scans = [...seen].flatMap((text) => {
        if (/^\s*insert/i.test(text)) return [];
        const params = Array<null>((text.match(/\?/g) ?? []).length).fill(null);
        const plan = reader.prepare(`explain query plan ${text}`).all(...params) as { detail: string }[];
        return plan.some((row) => /^SCAN print_jobs/.test(row.detail)) ? [`${text}\n  → ${plan.map((r) => r.detail).join(' | ')}`] : [];
      });
      expect(scans).toEqual([]);
    } finally {
      reader.close();
    }
  });
});
