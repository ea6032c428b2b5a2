import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Printer } from '@comanda/contract';
import { PRINTER_HOST_NOT_LOCAL, PRINTER_PORT_NOT_ALLOWED } from '@comanda/domain';
import { testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import type { PrinterEmulator } from '../src/features/printing/emulator/emulator.ts';
import { PRINTER_ADDRESS_REFUSED } from '../src/features/printing/address.ts';
import { renderDocument } from '../src/features/printing/render.ts';
import type { ComandaDocument } from '../src/model/printing/documents.ts';
import { printerRow } from '../src/testing/factories.ts';
import { freshOrder, startPrintingServer, waitFor, type PrintingServer } from './printing-helpers.ts';

/**
 * A printer is a raw TCP target the server writes text to: an admin may point one only at a
 * printing port on the bar's private network, and no text can break a line or send a command.
 */
type ErrorBody = { error: { code: string; message: string } };
const renderOpts = { width: 80 as const, jobNumber: 1, resend: false, timeZone: 'America/Mexico_City' };

function indexOfBytes(haystack: Uint8Array, needle: string): number {
  return Buffer.from(haystack).indexOf(Buffer.from(needle, 'latin1'));
}

describe('printer addresses at start and in the encoder', () => {
  it('PRINTERS refuses a public, link-local or named host and a non-printing port; loopback is for who starts the server', () => {
    const env = { DATABASE_URL: 'sqlite::memory:' };
    for (const printers of ['caja=tcp://8.8.8.8:9100', 'caja=tcp://169.254.169.254', 'caja=tcp://caja.local:9100'])
      expect(() => loadConfig({ ...env, PRINTERS: printers }), printers).toThrow(/red local/);
    expect(() => loadConfig({ ...env, PRINTERS: 'caja=tcp://192.168.1.52:5432' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, PRINTERS: 'caja=tcp://192.168.1.52:5432' })).toThrow(/9100, 9101 o 9102/);
    expect(loadConfig({ ...env, PRINTERS: 'cocina=tcp://192.168.1.50:9100,caja=tcp://10.0.0.7' }).PRINTERS).toBeDefined();
    expect(loadConfig({ ...env, PRINTERS: 'cocina=tcp://127.0.0.1:40123' }).PRINTERS).toBeDefined();
  });

  it('a name with CR, LF, ESC or a Unicode line break is printed on one line, with no control byte inside it', () => {
    const comanda: ComandaDocument = {
      type: 'comanda',
      station: 'cocina',
      table: 'Mesa 1',
      waiter: 'Ana\rQUIT',
      guests: 1,
      orderShortId: 'abc',
      at: Date.UTC(2026, 0, 1),
      cancel: false,
      reprint: false,
      lines: [{ itemId: 'i1', quantity: 1, name: 'Taco\r\nQUIT\u001b@\u2028RSET', notes: 'sin\ncebolla\u0007' }],
    };
    const bytes = renderDocument(comanda, renderOpts);
    for (const [from, to] of [
      ['Taco', 'RSET'],
      ['Ana', 'QUIT'],
      ['sin', 'cebolla'],
    ] as const) {
      const start = indexOfBytes(bytes, from);
      const end = indexOfBytes(bytes, to) + to.length;
      expect(start, from).toBeGreaterThanOrEqual(0);
      expect([...bytes.subarray(start, end)].filter((b) => b < 0x20 || b === 0x7f)).toEqual([]);
    }
    expect(indexOfBytes(bytes, '1 x Taco QUIT @ RSET')).toBeGreaterThan(0);
  });
});

describe.each(testDatabaseKinds())('printer addresses on %s', (kind) => {
  let server: TestServer;
  let printers: Record<'cocina' | 'barra' | 'caja', PrinterEmulator>;
  let admin: ApiClient;
  let waiter: ApiClient;
  let running: PrintingServer | undefined;
  const printerCount = async () => (await server.ctx.db.db.selectFrom('printers').select('id').execute()).length;
  const auditCount = async () =>
    (await server.ctx.db.db.selectFrom('audit_log').select('id').where('entity', '=', 'printer').execute()).length;
  const list = async () => (await admin.get<{ printers: Printer[] }>('/api/printers')).body.printers;

  beforeAll(async () => {
    running = await startPrintingServer(kind, { PRINT_RETRY_MS: '200', PRINT_RETRY_MAX_MS: '1000', PRINT_TIMEOUT_MS: '1000' });
    ({ server, printers, admin, waiter } = running);
  }, 60_000);
  afterAll(async () => {
    await running?.stop();
  });

  it('refuses loopback, link-local, public and named hosts and non-printing ports (422, in Spanish), and writes nothing', async () => {
    const [printersBefore, auditsBefore] = [await printerCount(), await auditCount()];
    const hosts = ['127.0.0.1', 'localhost', '::1', '169.254.169.254', 'fe80::1', '8.8.8.8', 'cocina.local', '010.0.0.1', '0.0.0.0'];
    for (const host of hosts) {
      const res = await admin.post<ErrorBody>('/api/printers', { name: 'Fuera', host, port: 9100, role: 'caja', enabled: false });
      expect(res.status, host).toBe(422);
      expect(res.body.error).toEqual({ code: 'printer_host_not_local', message: PRINTER_HOST_NOT_LOCAL });
    }
    for (const port of [22, 25, 80, 515, 631, 5432, 6379]) {
      const res = await admin.post<ErrorBody>('/api/printers', { name: 'Fuera', host: '192.168.1.50', port, role: 'caja', enabled: false });
      expect(res.status, String(port)).toBe(422);
      expect(res.body.error).toEqual({ code: 'printer_port_not_allowed', message: PRINTER_PORT_NOT_ALLOWED });
    }
    expect([await printerCount(), await auditCount()]).toEqual([printersBefore, auditsBefore]);

    const ok = await admin.post<{ printer: Printer }>('/api/printers', {
      name: 'Barra 2',
      host: '192.168.1.50',
      role: 'barra',
      enabled: false,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.printer).toMatchObject({ host: '192.168.1.50', port: 9100 });
    const ula = await admin.post<{ printer: Printer }>('/api/printers', {
      name: 'Barra 3',
      host: 'fd00::50',
      port: 9101,
      role: 'barra',
      enabled: false,
    });
    expect(ula.status).toBe(200);
    const id = ok.body.printer.id;
    for (const patch of [{ host: '127.0.0.1' }, { host: '169.254.169.254' }, { port: 5432 }, { host: 'barra2.local' }]) {
      const res = await admin.patch<ErrorBody>(`/api/printers/${id}`, patch);
      expect(res.status, JSON.stringify(patch)).toBe(422);
    }
    expect((await list()).find((p) => p.id === id)).toMatchObject({ host: '192.168.1.50', port: 9100 });
    expect((await admin.patch(`/api/printers/${id}`, { host: '10.0.0.9', port: 9102 })).status).toBe(200);
    for (const p of [id, ula.body.printer.id]) expect((await admin.delete(`/api/printers/${p}`)).status).toBe(200);
  });

  it('a printer on loopback set up at start keeps its address when edited, and cannot be moved to another loopback port', async () => {
    const caja = (await list()).find((p) => p.role === 'caja')!;
    expect(caja.host).toBe('127.0.0.1');
    const same = await admin.patch<{ printer: Printer }>(`/api/printers/${caja.id}`, {
      name: 'Caja principal',
      host: caja.host,
      port: caja.port,
      role: 'caja',
      width: 80,
      enabled: true,
    });
    expect(same.status).toBe(200);
    const moved = await admin.patch<ErrorBody>(`/api/printers/${caja.id}`, { port: 5432 });
    expect(moved.status).toBe(422);
    expect(moved.body.error.message).toBe(PRINTER_HOST_NOT_LOCAL);
    expect((await admin.patch(`/api/printers/${caja.id}`, { name: caja.name })).status).toBe(200);
  });

  it('a printer saved on a forbidden address before the rule is never connected to: its jobs wait and it shows why', async () => {
    // A local service the old rule let an admin aim at: it must see no connection at all.
    let connections = 0;
    const service: Server = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const port = (service.address() as { port: number }).port;
    try {
      const row = printerRow({ name: 'Vieja', role: 'caja', port, created_at: Date.now() });
      await server.ctx.db.db.insertInto('printers').values(row).execute();
      expect((await admin.post(`/api/printers/${row.id}/test`)).status).toBe(200);
      const shows = async () => (await list()).find((p) => p.id === row.id);
      await waitFor(async () => (await shows())?.lastError === PRINTER_ADDRESS_REFUSED, 5000, 'the refused address shown');
      expect(await shows()).toMatchObject({ status: 'error', pendingJobs: 1 });
      expect(connections).toBe(0);
      expect((await admin.delete(`/api/printers/${row.id}`)).status).toBe(200);
    } finally {
      await new Promise<void>((resolve) => service.close(() => resolve()));
    }
  });

  it('a product named "Taco\\r\\nQUIT" and a printer name with a line break print as one line each', async () => {
    const created = await admin.post<{ product: { id: string; name: string } }>('/api/products', {
      name: 'Taco\r\nQUIT',
      price: 4500,
      category: 'Comida',
    });
    expect(created.status).toBe(201);
    printers.cocina.clear();
    const order = await freshOrder(admin, waiter);
    const added = await waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, { productId: created.body.product.id, quantity: 1 });
    expect(added.status).toBe(200);
    await waitFor(() => printers.cocina.list().some((t) => t.text.includes('Taco')), 5000, 'the comanda at cocina');
    const lines = printers.cocina.list().flatMap((t) => t.text.split('\n'));
    // "## " is the decoder's mark for double-size text.
    expect(lines.filter((l) => l.includes('Taco'))).toEqual(['## 1 x Taco QUIT']);
    expect(lines.some((l) => /^(#+ )?\s*QUIT/.test(l))).toBe(false);

    const caja = (await list()).find((p) => p.role === 'caja')!;
    expect((await admin.patch(`/api/printers/${caja.id}`, { name: 'Caja\r\nRSET' })).status).toBe(200);
    printers.caja.clear();
    expect((await admin.post(`/api/printers/${caja.id}/test`)).status).toBe(200);
    await waitFor(() => printers.caja.list().length > 0, 5000, 'the test page at caja');
    const test = printers.caja.list()[0]!.text.split('\n');
    expect(test.filter((l) => l.includes('Caja'))).toEqual(['Impresora: Caja RSET']);
    expect((await admin.patch(`/api/printers/${caja.id}`, { name: caja.name })).status).toBe(200);
  });
});
