import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TicketResponse } from '@comanda/contract';
import { SELF_INVOICE_TEXT, selfInvoiceDate } from '@comanda/domain';
import { testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import type { PrinterEmulator } from '../src/features/printing/emulator/emulator.ts';
import { renderDocument } from '../src/features/printing/render.ts';
import type { ReceiptDocument } from '../src/model/printing/documents.ts';
import { freshOrder, productsByStation, startPrintingServer, waitFor, type PrintingServer } from './printing-helpers.ts';

function containsBytes(haystack: Uint8Array, needle: number[]): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let k = 0; k < needle.length; k++) if (haystack[i + k] !== needle[k]) continue outer;
    return true;
  }
  return false;
}

/** GS ( k pL pH 1 P 0 d…: the QR's data stored in the printer, as the encoder builds it. */
function qrStore(data: string): number[] {
  const bytes = [...Buffer.from(data, 'latin1')];
  const length = bytes.length + 3;
  return [0x1d, 0x28, 0x6b, length & 0xff, length >> 8, 0x31, 0x50, 0x30, ...bytes];
}

const flat = (text: string) => text.replace(/\s+/g, ' ');

/**
 * The ticket carries the PAC's self-invoice page: the close's receipt (printed before the receipt
 * exists) says it is queued; once the worker issued it (the Facturapi simulator, demo mode), the
 * reprint on the caja printer prints its QR, key and expiry, and the ticket API carries them.
 */
describe.each(testDatabaseKinds())('the self-invoice on the ticket on %s', (kind) => {
  let server: TestServer;
  let printers: Record<'cocina' | 'barra' | 'caja', PrinterEmulator>;
  let running: PrintingServer | undefined;
  let admin: ApiClient;
  let waiter: ApiClient;
  const jobsOf = (orderId: string) =>
    server.ctx.db.db
      .selectFrom('print_jobs')
      .select(['document', 'state'])
      .where('order_id', '=', orderId)
      .where('kind', '=', 'ticket')
      .orderBy('created_at')
      .execute();

  beforeAll(async () => {
    running = await startPrintingServer(kind, { PRINT_RETRY_MS: '200', PRINT_RETRY_MAX_MS: '1000', PRINT_TIMEOUT_MS: '1000' });
    ({ server, printers, admin, waiter } = running);
  }, 60_000);
  afterAll(async () => {
    await running?.stop();
  });

  it('the close says the code comes with a reprint; the reprint prints the QR of the page, the key and "Factura en línea hasta el"', async () => {
    const product = (await productsByStation(server))[0]!;
    const order = await freshOrder(admin, waiter);
    expect((await waiter.post(`/api/orders/${order.id}/items`, { productId: product.id, quantity: 2 })).status).toBe(200);
    await server.ctx.db.db.updateTable('order_items').set({ status: 'entregado' }).where('order_id', '=', order.id).execute();
    printers.caja.clear();
    const close = await waiter.post(
      `/api/orders/${order.id}/close`,
      { method: 'efectivo', pin: server.users.waiter.pin, tipBps: 1000, peopleCount: 1, receivedAmount: product.price * 3 },
      { 'idempotency-key': randomUUID() },
    );
    expect(close.status, JSON.stringify(close.body)).toBe(200);

    // The close's receipt is written before any PAC receipt exists: it says so.
    const [closeJob] = await jobsOf(order.id);
    expect((JSON.parse(closeJob!.document) as ReceiptDocument).selfInvoice).toEqual({ state: 'queued' });
    await waitFor(() => printers.caja.list().length === 1, 5000, 'the close printed');
    const first = printers.caja.list()[0]!;
    expect(flat(first.text)).toContain(SELF_INVOICE_TEXT.queued);
    expect(first.text).not.toContain('[QR ');

    // The worker issues the receipt at the PAC (the simulator) right after the close.
    const receipt = async () =>
      server.ctx.db.db.selectFrom('invoice_receipts').selectAll().where('order_id', '=', order.id).executeTakeFirst();
    await waitFor(async () => (await receipt())?.state === 'emitido', 15_000, 'the receipt issued');
    const row = (await receipt())!;
    const url = row.self_invoice_url!;
    const key = row.receipt_key!;
    const until = SELF_INVOICE_TEXT.until(selfInvoiceDate(Number(row.expires_at), server.ctx.config.BUSINESS_TIMEZONE));
    expect(url).toMatch(/^https?:\/\//);
    expect(until).toMatch(/^Factura en línea hasta el \d{2}\/\d{2}\/\d{4}$/);

    // The web ticket view reads the same: the state, page, key, expiry and the QR drawn.
    const ticket = await admin.get<TicketResponse>(`/api/tickets/${order.id}`);
    expect(ticket.status).toBe(200);
    expect(ticket.body.invoicing).toMatchObject({
      state: 'emitido',
      selfInvoiceUrl: url,
      receiptKey: key,
      expiresAt: Number(row.expires_at),
    });
    expect(ticket.body.selfInvoiceQrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);

    // Reprint on the caja printer: REIMPRESIÓN, the QR command with the page, the key, the expiry; no drawer pulse.
    const reprint = await admin.post<{ jobs: number }>(`/api/tickets/${order.id}/print`, {}, { 'idempotency-key': randomUUID() });
    expect(reprint.status, JSON.stringify(reprint.body)).toBe(200);
    expect(reprint.body.jobs).toBe(1);
    await waitFor(() => printers.caja.list().length === 2, 5000, 'the reprint printed');
    const again = printers.caja.list()[1]!;
    expect(again.text).toContain('REIMPRESIÓN');
    expect(again.text).toContain(`[QR ${url}]`);
    expect(again.text).toContain(SELF_INVOICE_TEXT.key(key));
    expect(again.text).toContain(until);
    expect(flat(again.text)).not.toContain(SELF_INVOICE_TEXT.queued);
    expect(again.pulses).toBe(0);
    expect(first.pulses).toBe(1);
    const reprintJob = (await jobsOf(order.id))[1]!;
    const bytes = renderDocument(JSON.parse(reprintJob.document) as ReceiptDocument, {
      width: 80,
      jobNumber: 1,
      resend: false,
      timeZone: server.ctx.config.BUSINESS_TIMEZONE,
    });
    expect(containsBytes(bytes, qrStore(url))).toBe(true);
    // Print the stored symbol: GS ( k 3 0 1 Q 0.
    expect(containsBytes(bytes, [0x1d, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x51, 0x30])).toBe(true);
    const audit = await server.ctx.db.db
      .selectFrom('audit_log')
      .select(['action'])
      .where('entity_id', '=', order.id)
      .where('action', '=', 'ticket.reprinted')
      .execute();
    expect(audit).toHaveLength(1);
  });
});
