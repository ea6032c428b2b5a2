import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Printer, Table } from '@comanda/contract';
import { stationOf } from '@comanda/domain';
import {
  createTestDatabase,
  DEMO_USERS,
  freePort,
  loginAt,
  spawnTsProcess,
  type TestDatabase,
  type TsProcess,
} from '../src/testing/index.ts';
import type { PrinterEmulator } from '../src/features/printing/emulator/emulator.ts';
import { countMarkers, printersEnv, startEmulators, waitFor } from './printing-helpers.ts';

/**
 * kill -9 of a real server process with comandas waiting for a printer that is off: after the
 * restart every job prints exactly once. The jobs live in the database, committed with the items.
 */
describe('print jobs across kill -9 (sqlite)', () => {
  let database: TestDatabase;
  let printers: Record<'cocina' | 'barra' | 'caja', PrinterEmulator>;
  let proc: TsProcess | null = null;
  let env: Record<string, string>;
  let port: number;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    printers = await startEmulators();
    port = await freePort();
    env = {
      WEB_DIST: '/nonexistent-web-dist',
      DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      PIN_SECRET: 'test-pin-secret-0123456789',
      DEMO_DATA: 'auto',
      PRINTERS: printersEnv(printers),
      PRINT_RETRY_MS: '200',
      PRINT_RETRY_MAX_MS: '500',
      PRINT_TIMEOUT_MS: '1000',
    };
  }, 60_000);
  afterAll(async () => {
    await proc?.stop();
    for (const p of Object.values(printers ?? {})) await p.stop();
    await database?.drop();
  });

  it('jobs pending at the crash print exactly once after the restart', async () => {
    // Printers off: every comanda stays pending in the database.
    await printers.cocina.stop();
    await printers.barra.stop();
    proc = await spawnTsProcess('apps/server/src/main.ts', env, port, '/api/health');
    const admin = await loginAt(proc.url, DEMO_USERS[0]!.email);
    const waiter = await loginAt(proc.url, DEMO_USERS[1]!.email);
    const table = await admin.post<{ table: Table }>('/api/tables', { number: 77 });
    const order = (await waiter.post<{ order: Order }>(`/api/tables/${table.body.table.id}/open`)).body.order;
    const products = (await waiter.get<{ products: { id: string; category: string }[] }>('/api/products')).body.products;
    const food = products.find((p) => stationOf(p.category) === 'cocina')!;
    for (let i = 0; i < 8; i++) {
      const res = await waiter.post(`/api/orders/${order.id}/items`, { productId: food.id, quantity: 1, notes: `k${i}q` });
      expect(res.status).toBe(200);
    }
    const before = (await admin.get<{ printers: Printer[] }>('/api/printers')).body.printers;
    expect(before.find((p) => p.role === 'cocina')!.pendingJobs).toBe(8);
    await proc.kill9();
    proc = null;

    await printers.cocina.start();
    await printers.barra.start();
    proc = await spawnTsProcess('apps/server/src/main.ts', env, port, '/api/health');
    const admin2 = await loginAt(proc.url, DEMO_USERS[0]!.email);
    await waitFor(
      async () => (await admin2.get<{ printers: Printer[] }>('/api/printers')).body.printers.every((p) => p.pendingJobs === 0),
      20_000,
      'every job printed after the restart',
    );
    const tickets = printers.cocina.list();
    const counts = countMarkers(tickets, /k\d+q/g);
    expect([...counts.entries()].sort()).toEqual(Array.from({ length: 8 }, (_, i) => [`k${i}q`, 1]));
    // In order, and none marked as a resend: nothing was in flight at the crash.
    expect(tickets.flatMap((t) => [...t.text.matchAll(/k\d+q/g)].map((m) => m[0]))).toEqual(Array.from({ length: 8 }, (_, i) => `k${i}q`));
    expect(tickets.some((t) => t.text.includes('REENVÍO'))).toBe(false);
  }, 120_000);

  it('a job in flight at the crash (bytes sent, no acknowledgement) is printed again after the restart, marked REENVÍO', async () => {
    await proc?.stop();
    proc = null;
    printers.cocina.clear();
    printers.cocina.withholdAck = true;
    // A long timeout keeps the delivery waiting for the acknowledgement while the process dies.
    const slow = { ...env, PRINT_TIMEOUT_MS: '2000' };
    proc = await spawnTsProcess('apps/server/src/main.ts', slow, port, '/api/health');
    const admin = await loginAt(proc.url, DEMO_USERS[0]!.email);
    const waiter = await loginAt(proc.url, DEMO_USERS[1]!.email);
    const table = await admin.post<{ table: Table }>('/api/tables', { number: 78 });
    const order = (await waiter.post<{ order: Order }>(`/api/tables/${table.body.table.id}/open`)).body.order;
    const products = (await waiter.get<{ products: { id: string; category: string }[] }>('/api/products')).body.products;
    const food = products.find((p) => stationOf(p.category) === 'cocina')!;
    expect((await waiter.post(`/api/orders/${order.id}/items`, { productId: food.id, quantity: 1, notes: 'inflight' })).status).toBe(200);
    // The printer has the whole ticket; the server is still waiting for the acknowledgement.
    await waitFor(() => printers.cocina.list().some((t) => t.complete && t.text.includes('inflight')), 5000, 'ticket at the printer');
    await proc.kill9();
    proc = null;

    printers.cocina.withholdAck = false;
    proc = await spawnTsProcess('apps/server/src/main.ts', slow, port, '/api/health');
    const admin2 = await loginAt(proc.url, DEMO_USERS[0]!.email);
    // The crashed claim expires (its lease), then the job is delivered again.
    await waitFor(
      async () => (await admin2.get<{ printers: Printer[] }>('/api/printers')).body.printers.every((p) => p.pendingJobs === 0),
      30_000,
      'the in-flight job printed after the restart',
    );
    const tickets = printers.cocina.list().filter((t) => t.text.includes('inflight'));
    expect(tickets).toHaveLength(2);
    expect(tickets[0]!.text).not.toContain('REENVÍO');
    expect(tickets[1]!.text).toContain('REENVÍO');
    const number = (text: string) => /Trabajo #(\d+)/.exec(text)?.[1];
    expect(number(tickets[1]!.text)).toBe(number(tickets[0]!.text));
  }, 120_000);
});
