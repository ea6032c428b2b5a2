import { randomUUID } from 'node:crypto';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Corte, Printer } from '@comanda/contract';
import { testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import type { PrinterEmulator } from '../src/features/printing/emulator/emulator.ts';
import { decodeLogo } from '../src/features/printing/logo.ts';
import { renderDocument } from '../src/features/printing/render.ts';
import type { MovementDocument, ReceiptDocument } from '../src/model/printing/documents.ts';
import { freshOrder, productsByStation, startPrintingServer, waitFor, type PrintingServer, type Product } from './printing-helpers.ts';

type ErrorBody = { error: { code: string; message: string } };
/** GS v 0 m: the ESC/POS raster bit image command. */
const RASTER = [0x1d, 0x76, 0x30, 0x00];

function containsBytes(haystack: Uint8Array, needle: number[]): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let k = 0; k < needle.length; k++) if (haystack[i + k] !== needle[k]) continue outer;
    return true;
  }
  return false;
}

/** A small black-and-white PNG (a black bar on white) as a data: URL, like an owner would paste. */
function pngDataUrl(width = 96, height = 32): string {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const ink = y > 8 && y < 24 && x > 8 && x < width - 8;
      png.data[i] = png.data[i + 1] = png.data[i + 2] = ink ? 0 : 255;
      png.data[i + 3] = 255;
    }
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}

const receipt: ReceiptDocument = {
  type: 'ticket',
  business: { name: 'La Cantina', address: 'Calle Principal #123', phone: '(55) 1234-5678' },
  ticketNumber: 'ABC123',
  orderShortId: 'abc',
  table: 'Mesa 1',
  waiter: 'Ana',
  guests: 1,
  perGuest: 12000,
  at: Date.UTC(2026, 10, 22, 2, 5),
  lines: [{ quantity: 2, name: 'Tacos', amount: 12000 }],
  subtotal: 12000,
  tip: 0,
  total: 12000,
  method: 'Tarjeta',
  received: null,
  change: null,
  openDrawer: false,
};
const renderOpts = { width: 80 as const, jobNumber: 7, resend: false, timeZone: 'America/Mexico_City' };

describe('receipt logo', () => {
  it('a PNG data-URL logo prints as a raster image at the top of the receipt', () => {
    const decoded = decodeLogo(pngDataUrl());
    expect(decoded.image).not.toBeNull();
    const withLogo = renderDocument(receipt, { ...renderOpts, logo: decoded.image });
    expect(containsBytes(withLogo, RASTER)).toBe(true);
    expect(containsBytes(renderDocument(receipt, renderOpts), RASTER)).toBe(false);
  });

  it('a cash movement slip carries the logo too', () => {
    const slip: MovementDocument = {
      type: 'movimiento',
      businessName: 'La Cantina',
      kind: 'retiro',
      amount: 500_00,
      reason: 'Depósito al banco',
      authorizedBy: 'Ana Admin',
      createdBy: 'Ana Admin',
      at: Date.UTC(2026, 10, 21, 23, 0),
    };
    const logo = decodeLogo(pngDataUrl()).image;
    expect(containsBytes(renderDocument(slip, { ...renderOpts, logo }), RASTER)).toBe(true);
    expect(containsBytes(renderDocument(slip, renderOpts), RASTER)).toBe(false);
  });

  it('a logo that is not a printable PNG is skipped with a reason (the receipt prints without it)', () => {
    expect(decodeLogo('')).toEqual({ image: null, reason: null });
    expect(decodeLogo('https://example.com/logo.png')).toEqual({ image: null, reason: expect.stringMatching(/sin logo/) });
    expect(decodeLogo('data:image/png;base64,AAAA').image).toBeNull();
  });
});

/**
 * Issue 16: cash movement slips and cortes on the caja printer, through the print-job queue;
 * real TCP printer emulators on loopback and a real server and database.
 */
describe.each(testDatabaseKinds())('caja slips on %s', (kind) => {
  let server: TestServer;
  let printers: Record<'cocina' | 'barra' | 'caja', PrinterEmulator>;
  let running: PrintingServer | undefined;
  let admin: ApiClient;
  let waiter: ApiClient;
  let sessionId = '';
  const allPrinted = async () =>
    (await server.ctx.db.db.selectFrom('print_jobs').select('state').execute()).every((j) => j.state === 'printed');
  /** Waits until every job printed and a little longer, so a duplicate would have arrived. */
  const settle = async () => {
    await waitFor(allPrinted, 5000, 'every job printed').catch(async (e) => {
      console.log(await server.ctx.db.db.selectFrom('print_jobs').select(['kind', 'role', 'state', 'last_error', 'attempts']).execute());
      throw e;
    });
    await new Promise((r) => setTimeout(r, 300));
  };
  const move = (amount: number, reason: string) =>
    admin.post<{ movement: { id: string }; printJobs: number } & ErrorBody>('/api/drawer/movements', {
      kind: 'retiro',
      amount,
      reason,
      pin: server.users.admin.pin,
    });
  const cajaPrinter = async () => (await admin.get<{ printers: Printer[] }>('/api/printers')).body.printers.find((p) => p.role === 'caja')!;
  /** The waiter sells one `product` on a new table, delivered, and closes it in cash for the exact amount. */
  const sellOneInCash = async (product: Product) => {
    const order = await freshOrder(admin, waiter);
    expect((await waiter.post(`/api/orders/${order.id}/items`, { productId: product.id, quantity: 1 })).status).toBe(200);
    await server.ctx.db.db.updateTable('order_items').set({ status: 'entregado' }).where('order_id', '=', order.id).execute();
    const close = await waiter.post(
      `/api/orders/${order.id}/close`,
      { method: 'efectivo', pin: server.users.waiter.pin, tipBps: 0, peopleCount: 1, receivedAmount: product.price },
      { 'idempotency-key': randomUUID() },
    );
    expect(close.status, JSON.stringify(close.body)).toBe(200);
  };

  beforeAll(async () => {
    running = await startPrintingServer(kind, { PRINT_RETRY_MS: '200', PRINT_RETRY_MAX_MS: '1000', PRINT_TIMEOUT_MS: '1000' });
    ({ server, printers, admin, waiter } = running);
    const opened = await admin.post<{ session: { id: string } }>('/api/drawer/open', { count: { b50000: 1 } });
    expect(opened.status).toBe(200);
    sessionId = opened.body.session.id;
  }, 60_000);
  afterAll(async () => {
    await running?.stop();
  });

  it('a withdrawal prints exactly one slip on the caja printer, with the amount and the reason', async () => {
    for (const p of Object.values(printers)) p.clear();
    const res = await move(25_000, 'Retiro a caja fuerte ñandú');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.printJobs).toBe(1);
    await settle();
    const slips = printers.caja.list();
    expect(slips).toHaveLength(1);
    expect(slips[0]!.complete).toBe(true);
    expect(slips[0]!.text).toContain('COMPROBANTE DE RETIRO');
    expect(slips[0]!.text).toMatch(/Monto: \$250\.00/);
    expect(slips[0]!.text).toContain('Motivo: Retiro a caja fuerte ñandú');
    expect(slips[0]!.text).toContain(`Autorizó: ${server.users.admin.displayName}`);
    expect(slips[0]!.pulses).toBe(0);
    expect(printers.cocina.list()).toHaveLength(0);
    expect(printers.barra.list()).toHaveLength(0);
    // The job row is written with the movement, in its transaction.
    const jobs = await server.ctx.db.db.selectFrom('print_jobs').select(['kind', 'role']).where('kind', '=', 'movimiento').execute();
    expect(jobs).toEqual([{ kind: 'movimiento', role: 'caja' }]);

    // "Imprimir" on the movement prints it once more.
    const again = await admin.post<{ jobs: number }>(`/api/drawer/movements/${res.body.movement.id}/print`, {});
    expect(again.body.jobs).toBe(1);
    await settle();
    expect(printers.caja.list()).toHaveLength(2);
    expect(printers.caja.list()[1]!.text).toContain('Motivo: Retiro a caja fuerte ñandú');
  });

  it('corte X prints on request with the figures so far', async () => {
    printers.caja.clear();
    const res = await admin.post<{ jobs: number }>(`/api/drawer/sessions/${sessionId}/print`, {});
    expect(res.status).toBe(200);
    expect(res.body.jobs).toBe(1);
    await settle();
    const [x] = printers.caja.list();
    expect(printers.caja.list()).toHaveLength(1);
    expect(x!.text).toMatch(/^##\s+CORTE X$/m);
    expect(x!.text).toMatch(/Fondo inicial\s+\$500\.00/);
    expect(x!.text).toMatch(/Retiros\s+-\$250\.00/);
    expect(x!.text).toMatch(/Efectivo esperado\s+\$250\.00/);
    expect(x!.text).not.toContain('Efectivo contado');
  });

  it('with the caja printer switched off nothing is queued: the screen prints through the browser', async () => {
    const caja = await cajaPrinter();
    expect((await admin.patch(`/api/printers/${caja.id}`, { enabled: false })).status).toBe(200);
    printers.caja.clear();
    const res = await move(1_000, 'Sin impresora');
    expect(res.status).toBe(200);
    expect(res.body.printJobs).toBe(0);
    expect((await admin.post<{ jobs: number }>(`/api/drawer/sessions/${sessionId}/print`, {})).body.jobs).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(printers.caja.list()).toHaveLength(0);
    expect((await admin.patch(`/api/printers/${caja.id}`, { enabled: true })).status).toBe(200);
    // A patch changes only what it sends (the port and width stay).
    expect(await cajaPrinter()).toMatchObject({ enabled: true, port: caja.port, width: caja.width, host: caja.host });
  });

  it('a cash sale then the corte Z: the close prints its figures once, written with the close', async () => {
    const products = await productsByStation(server);
    const food = products.find((p) => p.station === 'cocina')!;
    await sellOneInCash(food);
    await settle();
    printers.caja.clear();

    // Expected: 500 float + sale − 250 − 10 withdrawals; counted 240 + the sale's exact bills is hard, so count short with a comment.
    const z = await admin.post<{ corte: Corte; printJobs: number } & ErrorBody>(`/api/drawer/sessions/${sessionId}/corte-z`, {
      count: { b20000: 1 },
      comment: 'Conteo de prueba',
      cashierPin: server.users.waiter.pin,
      adminPin: server.users.admin.pin,
    });
    expect(z.status, JSON.stringify(z.body)).toBe(200);
    expect(z.body.printJobs).toBe(1);
    const expected = z.body.corte.figures.expected;
    expect(expected).toBe(50_000 + food.price - 25_000 - 1_000);
    await settle();
    const slips = printers.caja.list();
    expect(slips).toHaveLength(1);
    const text = slips[0]!.text;
    const pesos = (c: number) => `$${Math.floor(Math.abs(c) / 100).toLocaleString('en-US')}.${String(Math.abs(c) % 100).padStart(2, '0')}`;
    expect(text).toMatch(/^##\s+CORTE Z$/m);
    expect(text).toMatch(/Fondo inicial\s+\$500\.00/);
    expect(text).toMatch(new RegExp(`Ventas en efectivo\\s+\\${pesos(food.price)}`));
    expect(text).toMatch(new RegExp(`Efectivo esperado\\s+\\${pesos(expected)}`));
    expect(text).toMatch(/Efectivo contado\s+\$200\.00/);
    const diff = 20_000 - expected;
    expect(text).toMatch(new RegExp(`Diferencia \\((Faltante|Sobrante)\\)\\s+${diff < 0 ? '-' : ''}\\${pesos(diff)}`));
    expect(text).toContain('Conteo de prueba');
    expect(text).toContain(`Cajero: ${server.users.waiter.displayName}`);
    expect(text).toContain(`Administrador: ${server.users.admin.displayName}`);
    expect(text).toMatch(/Retiro: Retiro a caja fuerte ñandú\s+\$250\.00/);
  });

  it('a receipt prints the business logo when it is a PNG data: URL', async () => {
    const general = await admin.get<Record<string, unknown>>('/api/config/general');
    const saved = await admin.put('/api/config/general', {
      name: general.body.name,
      logoUrl: pngDataUrl(),
      address: general.body.address,
      phone: general.body.phone,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    printers.caja.clear();
    const products = await productsByStation(server);
    const food = products.find((p) => p.station === 'cocina')!;
    await sellOneInCash(food);
    await waitFor(() => printers.caja.list().length === 1, 5000, 'receipt at caja');
    const [ticket] = printers.caja.list();
    expect(ticket!.text.split('\n')[0]).toBe('[IMAGEN]');
    expect(ticket!.text).toContain('PASE DE SALIDA');
  });
});
