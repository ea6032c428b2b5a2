import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardResponse, CancellationsReport, Order, Table, TicketsPage } from '@comanda/contract';
import { DEFAULT_VOID_REASONS, VOID_BOARD_RETENTION_MS, VOID_MESSAGES } from '@comanda/domain';
import { startTestServer, testDatabaseKinds, withShiftHoldingNow, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { insertCardPayment, insertPrinter } from '../src/testing/factories.ts';

type Err = { error: { code: string; message: string } };
type Who = 'admin' | 'waiter' | 'waiter2' | 'kitchen';

/** Issue #14 items 6 and 9: voids with reasons, cancelled orders, deliveries from the order screen. */
describe.each(testDatabaseKinds())('voids, cancellations and deliveries on %s', (kind) => {
  let server: TestServer;
  const api = {} as Record<Who, ApiClient>;
  let products: { id: string; name: string; price: number; category: string }[];
  const db = () => server.ctx.db.db;

  beforeAll(async () => {
    server = await startTestServer(kind);
    for (const who of ['admin', 'waiter', 'waiter2', 'kitchen'] as const) api[who] = await server.login(server.users[who].email);
    products = (await db().selectFrom('products').select(['id', 'name', 'price', 'category']).orderBy('name').execute()).map((p) => ({
      ...p,
      price: Number(p.price),
    }));
  }, 60_000);
  afterAll(async () => {
    await server?.close(); // checks the invariants, voids' included
  });

  const product = (name: string) => products.find((p) => p.name === name)!;
  let nextNumber = 400;
  const fresh = async (who: Who = 'waiter'): Promise<Order & { tableIdCreated: string }> => {
    const created = await api.admin.post<{ table: Table }>('/api/tables', { number: nextNumber++ });
    expect(created.status).toBe(200);
    const opened = await api[who].post<{ order: Order }>(`/api/tables/${created.body.table.id}/open`);
    expect(opened.status).toBe(200);
    return { ...opened.body.order, tableIdCreated: created.body.table.id };
  };
  const add = async (who: Who, orderId: string, name: string, quantity: number) => {
    const res = await api[who].post<{ order: Order }>(`/api/orders/${orderId}/items`, { productId: product(name).id, quantity });
    expect(res.status).toBe(200);
    return res.body.order.items.at(-1)!;
  };
  const voidUnits = (who: Who, orderId: string, itemId: string, body: Record<string, unknown>) =>
    api[who].post<{ order: Order } & Err>(`/api/orders/${orderId}/items/${itemId}/void`, body);
  const setStatus = async (orderId: string, itemId: string, status: string) => {
    const res = await api.admin.patch(`/api/orders/${orderId}/items/${itemId}/status`, { status });
    expect(res.status).toBe(200);
  };
  const rows = (orderId: string) =>
    db().selectFrom('order_items').selectAll().where('order_id', '=', orderId).orderBy('created_at').orderBy('id').execute();
  const orderRow = (orderId: string) => db().selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();

  it('voiding some units of a line splits it: the voided units become a deleted row with the reason', async () => {
    const order = await fresh();
    const tacos = product('Tacos al pastor (3)');
    const item = await add('waiter', order.id, tacos.name, 3);
    const events: string[] = [];
    const off = server.ctx.live.onEvent((e) => events.push(e.topic));
    const res = await voidUnits('waiter', order.id, item.id, { quantity: 1, reason: 'Cliente cambió de opinión', note: '  sin hambre ' });
    off();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.order.subtotal).toBe(tacos.price * 2);
    const [live, voided] = [res.body.order.items.find((i) => i.id === item.id)!, res.body.order.items.find((i) => i.id !== item.id)!];
    expect(live).toMatchObject({ quantity: 2, isDeleted: false, voidReason: null });
    expect(voided).toMatchObject({
      quantity: 1,
      isDeleted: true,
      productId: tacos.id,
      productPrice: tacos.price,
      deletedBy: server.users.waiter.id,
      voidReason: 'Cliente cambió de opinión',
      voidNote: 'sin hambre',
    });
    // Units are conserved: 2 live + 1 voided = the 3 ordered.
    const stored = await rows(order.id);
    expect(stored.reduce((acc, r) => acc + r.quantity, 0)).toBe(3);
    expect(events).toEqual(expect.arrayContaining([`order:${order.id}`, 'orders', 'tables', 'board']));
    const audit = await db()
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_id', '=', order.id)
      .where('action', '=', 'order.item-voided')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.authorized_by).toBeNull();
    expect(JSON.parse(audit[0]!.data!)).toMatchObject({ units: 1, remaining: 2, reason: 'Cliente cambió de opinión', amount: tacos.price });

    // Voiding every remaining unit voids the row itself; the order owes nothing, never less.
    const all = await voidUnits('waiter', order.id, item.id, { quantity: 2, reason: 'Error de captura' });
    expect(all.status).toBe(200);
    expect(all.body.order.subtotal).toBe(0);
    expect(all.body.order.items.filter((i) => i.isDeleted)).toHaveLength(2);
    const again = await voidUnits('waiter', order.id, item.id, { quantity: 1, reason: 'Error de captura' });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(VOID_MESSAGES.itemVoided);
  });

  it('refuses bad units and reasons off the list, writing nothing', async () => {
    const order = await fresh();
    const item = await add('waiter', order.id, 'Cerveza clara', 2);
    const before = await rows(order.id);
    for (const body of [
      { quantity: 0, reason: 'Otro' },
      { quantity: 1.5, reason: 'Otro' },
      { quantity: 1 },
      { quantity: 1, reason: '' },
      { quantity: 1, reason: 'Otro', price: 0 },
    ]) {
      const res = await voidUnits('waiter', order.id, item.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const unknown = await voidUnits('waiter', order.id, item.id, { quantity: 1, reason: 'Porque sí' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe(VOID_MESSAGES.reasonUnknown);
    const tooMany = await voidUnits('waiter', order.id, item.id, { quantity: 3, reason: 'Otro' });
    expect(tooMany.status).toBe(409);
    expect(await rows(order.id)).toEqual(before);
  });

  it('an item already listo or entregado needs an admin PIN; pendiente and en preparación do not', async () => {
    const order = await fresh();
    const item = await add('waiter', order.id, 'Margarita', 4);
    await setStatus(order.id, item.id, 'en_preparacion');
    const early = await voidUnits('waiter', order.id, item.id, { quantity: 1, reason: 'Tardó demasiado' });
    expect(early.status).toBe(200);
    await setStatus(order.id, item.id, 'listo');
    const noPin = await voidUnits('waiter', order.id, item.id, { quantity: 1, reason: 'Producto en mal estado' });
    expect(noPin.status).toBe(403);
    expect(noPin.body.error).toEqual({ code: 'pin_required', message: VOID_MESSAGES.pinRequired });
    const ownPin = await voidUnits('waiter', order.id, item.id, {
      quantity: 1,
      reason: 'Producto en mal estado',
      pin: server.users.waiter.pin,
    });
    expect(ownPin.body.error.message).toBe(VOID_MESSAGES.notAdminPin);
    const otherPin = await voidUnits('waiter', order.id, item.id, {
      quantity: 1,
      reason: 'Producto en mal estado',
      pin: server.users.kitchen.pin,
    });
    expect(otherPin.status).toBe(403);
    expect(otherPin.body.error.message).toBe('PIN incorrecto');
    // Even the admin types the PIN for a prepared item.
    const adminNoPin = await voidUnits('admin', order.id, item.id, { quantity: 1, reason: 'Producto en mal estado' });
    expect(adminNoPin.status).toBe(403);
    const ok = await voidUnits('waiter', order.id, item.id, { quantity: 1, reason: 'Producto en mal estado', pin: server.users.admin.pin });
    expect(ok.status).toBe(200);
    const voided = (await rows(order.id)).filter((r) => r.void_reason === 'Producto en mal estado');
    expect(voided).toHaveLength(1);
    expect(voided[0]).toMatchObject({ void_authorized_by: server.users.admin.id, deleted_by: server.users.waiter.id, status: 'listo' });
    const audit = await db()
      .selectFrom('audit_log')
      .select('authorized_by')
      .where('entity_id', '=', order.id)
      .where('action', '=', 'order.item-voided')
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.authorized_by).toBe(server.users.admin.id);
    await setStatus(order.id, item.id, 'entregado');
    const delivered = await voidUnits('waiter', order.id, item.id, { quantity: 1, reason: 'Otro' });
    expect(delivered.status).toBe(403);
  });

  it('only the order’s waiter or an admin voids, cancels or delivers', async () => {
    const order = await fresh();
    const item = await add('waiter', order.id, 'Cerveza clara', 1);
    const other = await voidUnits('waiter2', order.id, item.id, { quantity: 1, reason: 'Otro' });
    expect(other.status).toBe(403);
    const kitchen = await voidUnits('kitchen', order.id, item.id, { quantity: 1, reason: 'Otro' });
    expect(kitchen.status).toBe(403);
    expect((await api.waiter2.post(`/api/orders/${order.id}/cancel`, {})).status).toBe(403);
    expect((await api.kitchen.post(`/api/orders/${order.id}/deliver`, { itemIds: [item.id] })).status).toBe(403);
    expect((await api.waiter2.post(`/api/orders/${order.id}/deliver`, { itemIds: [item.id] })).status).toBe(403);
    const admin = await voidUnits('admin', order.id, item.id, { quantity: 1, reason: 'Otro' });
    expect(admin.status).toBe(200);
  });

  it('two devices voiding the same units at once: one wins, nothing is voided twice', async () => {
    const order = await fresh();
    const item = await add('waiter', order.id, 'Tacos al pastor (3)', 3);
    const results = await Promise.all([
      voidUnits('waiter', order.id, item.id, { quantity: 2, reason: 'Error de captura' }),
      voidUnits('admin', order.id, item.id, { quantity: 2, reason: 'Error de captura' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const stored = await rows(order.id);
    expect(stored.filter((r) => r.is_deleted === 0).map((r) => r.quantity)).toEqual([1]);
    expect(stored.filter((r) => r.is_deleted === 1).map((r) => r.quantity)).toEqual([2]);
    expect(Number((await orderRow(order.id)).subtotal)).toBe(product('Tacos al pastor (3)').price);
  });

  it('a paid order and an order being charged by card refuse voids and cancellation', async () => {
    const order = await fresh();
    const item = await add('waiter', order.id, 'Cerveza clara', 2);
    const price = product('Cerveza clara').price;
    const now = Date.now();
    await insertCardPayment(db(), order.id, {
      id: randomUUID(),
      terminal_id: 'terminal-prueba',
      amount: price * 2,
      created_by: server.users.waiter.id,
      created_at: now,
    });
    const frozen = await voidUnits('waiter', order.id, item.id, { quantity: 1, reason: 'Otro' });
    expect(frozen.status).toBe(409);
    expect(frozen.body.error.code).toBe('order_frozen');
    const cancel = await api.admin.post<Err>(`/api/orders/${order.id}/cancel`, { reason: 'Otro', pin: server.users.admin.pin });
    expect(cancel.status).toBe(409);
    expect(cancel.body.error.code).toBe('order_frozen');
    await db().updateTable('card_payments').set({ state: 'cancelled' }).where('order_id', '=', order.id).execute();

    await db().updateTable('order_items').set({ status: 'entregado' }).where('order_id', '=', order.id).execute();
    const closed = await api.waiter.post(
      `/api/orders/${order.id}/close`,
      { method: 'efectivo', pin: server.users.waiter.pin, tipBps: 0, peopleCount: 1, receivedAmount: 1_000_000 },
      { 'idempotency-key': randomUUID() },
    );
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const paid = await voidUnits('admin', order.id, item.id, { quantity: 1, reason: 'Otro', pin: server.users.admin.pin });
    expect(paid.status).toBe(409);
    const paidCancel = await api.admin.post(`/api/orders/${order.id}/cancel`, { reason: 'Otro', pin: server.users.admin.pin });
    expect(paidCancel.status).toBe(409);
  });

  it('an empty order is cancelled by its waiter and frees the table', async () => {
    const order = await fresh();
    const events: string[] = [];
    const off = server.ctx.live.onEvent((e) => events.push(e.topic));
    const res = await api.waiter.post<{ order: Order }>(`/api/orders/${order.id}/cancel`, {});
    off();
    expect(res.status).toBe(200);
    expect(res.body.order).toMatchObject({ status: 'cancelado', subtotal: 0, cancelReason: null });
    const row = await orderRow(order.id);
    expect(row).toMatchObject({ active_table_id: null, cancelled_by: server.users.waiter.id, cancel_authorized_by: null });
    const table = await db().selectFrom('tables').selectAll().where('id', '=', order.tableIdCreated).executeTakeFirstOrThrow();
    expect(table).toMatchObject({ status: 'libre', current_order_id: null, waiter_id: null });
    expect(events).toEqual(expect.arrayContaining(['tables', 'orders']));
    // The table opens again at once; the cancelled order never changes again.
    expect((await api.waiter.post(`/api/tables/${order.tableIdCreated}/open`)).status).toBe(200);
    expect((await api.waiter.post(`/api/orders/${order.id}/cancel`, {})).status).toBe(409);
  });

  it('an order with items needs an admin PIN and a reason; its items are voided with that reason', async () => {
    const order = await fresh();
    await add('waiter', order.id, 'Tacos al pastor (3)', 2);
    await add('waiter', order.id, 'Cerveza clara', 1);
    const noPin = await api.waiter.post<Err>(`/api/orders/${order.id}/cancel`, { reason: 'Otro' });
    expect(noPin.status).toBe(403);
    expect(noPin.body.error.message).toBe(VOID_MESSAGES.cancelNeedsPin);
    const noReason = await api.waiter.post<Err>(`/api/orders/${order.id}/cancel`, { pin: server.users.admin.pin });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error.message).toBe(VOID_MESSAGES.reasonRequired);
    expect((await orderRow(order.id)).status).toBe('activo');
    const res = await api.waiter.post<{ order: Order }>(`/api/orders/${order.id}/cancel`, {
      reason: 'Cliente cambió de opinión',
      note: 'se fueron',
      pin: server.users.admin.pin,
    });
    expect(res.status).toBe(200);
    expect(res.body.order).toMatchObject({ status: 'cancelado', subtotal: 0, total: 0, cancelReason: 'Cliente cambió de opinión' });
    expect(res.body.order.items.every((i) => i.isDeleted && i.voidReason === 'Cliente cambió de opinión')).toBe(true);
    expect(await orderRow(order.id)).toMatchObject({ cancel_authorized_by: server.users.admin.id, cancel_note: 'se fueron' });
    const audit = await db()
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_id', '=', order.id)
      .where('action', '=', 'order.cancelled')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.authorized_by).toBe(server.users.admin.id);
    const expectedAmount = product('Tacos al pastor (3)').price * 2 + product('Cerveza clara').price;
    expect(JSON.parse(audit[0]!.data!)).toMatchObject({ reason: 'Cliente cambió de opinión', items: 2, amount: expectedAmount });

    // The tickets history lists it as CANCELADO (never among the paid ones); its ticket opens.
    const cancelled = await api.admin.get<TicketsPage>('/api/tickets?status=cancelado');
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.tickets.find((t) => t.id === order.id)).toMatchObject({
      status: 'cancelado',
      cancelReason: 'Cliente cambió de opinión',
      payment: null,
    });
    const paid = await api.admin.get<TicketsPage>('/api/tickets');
    expect(paid.body.tickets.some((t) => t.id === order.id)).toBe(false);
    expect((await api.admin.get(`/api/tickets/${order.id}`)).status).toBe(200);
    expect((await api.waiter.get('/api/tickets?status=cancelado')).status).toBe(403);
  });

  it('the cash close lists voids and cancelled orders by reason and by user, never as sales', async () => {
    // Sales made between shifts belong to no close: the shift is widened to hold them.
    await withShiftHoldingNow(api.admin, async () => {
      const summaryBefore = (await api.admin.get<{ summary: { totalOrders: number; totalSales: number } }>('/api/cash-close')).body.summary;
      const before = (await api.admin.get<CancellationsReport>('/api/cash-close/cancellations')).body;
      const order = await fresh();
      const item = await add('waiter', order.id, 'Margarita', 3);
      expect((await voidUnits('waiter', order.id, item.id, { quantity: 2, reason: 'Tardó demasiado' })).status).toBe(200);
      const doomed = await fresh('waiter2');
      await add('waiter2', doomed.id, 'Cerveza clara', 2);
      const cancel = await api.waiter2.post(`/api/orders/${doomed.id}/cancel`, { reason: 'Error de captura', pin: server.users.admin.pin });
      expect(cancel.status).toBe(200);
      const res = await api.admin.get<CancellationsReport>('/api/cash-close/cancellations');
      expect(res.status).toBe(200);
      const after = res.body;
      const margarita = product('Margarita').price;
      const beer = product('Cerveza clara').price;
      expect(after.voids.count - before.voids.count).toBe(1);
      expect(after.voids.units - before.voids.units).toBe(2);
      expect(after.voids.amount - before.voids.amount).toBe(margarita * 2);
      expect(after.voids.byReason.find((g) => g.label === 'Tardó demasiado')!.amount).toBeGreaterThanOrEqual(margarita * 2);
      expect(after.voids.byUser.find((g) => g.label === server.users.waiter.displayName)).toBeDefined();
      expect(after.cancelledOrders.count - before.cancelledOrders.count).toBe(1);
      expect(after.cancelledOrders.amount - before.cancelledOrders.amount).toBe(beer * 2);
      expect(after.cancelledOrders.byUser.find((g) => g.label === server.users.waiter2.displayName)).toBeDefined();
      // The cancelled order's items are counted once, as a cancellation, not again as voids.
      expect(after.voids.byReason.find((g) => g.label === 'Error de captura')?.amount ?? 0).toBe(
        before.voids.byReason.find((g) => g.label === 'Error de captura')?.amount ?? 0,
      );
      const summaryAfter = (await api.admin.get<{ summary: { totalOrders: number; totalSales: number } }>('/api/cash-close')).body.summary;
      expect(summaryAfter).toEqual(summaryBefore);
    });
    expect((await api.waiter.get('/api/cash-close/cancellations')).status).toBe(403);
  });

  it('the waiter delivers their own listo items from the order screen; the boards hear it', async () => {
    const order = await fresh();
    const a = await add('waiter', order.id, 'Tacos al pastor (3)', 1);
    const b = await add('waiter', order.id, 'Cerveza clara', 1);
    const deliver = (who: Who, itemIds: string[]) => api[who].post<{ order: Order } & Err>(`/api/orders/${order.id}/deliver`, { itemIds });
    const early = await deliver('waiter', [a.id]);
    expect(early.status).toBe(409);
    expect(early.body.error.message).toBe(VOID_MESSAGES.deliverNotReady);
    await setStatus(order.id, a.id, 'listo');
    await setStatus(order.id, b.id, 'listo');
    const events: string[] = [];
    const off = server.ctx.live.onEvent((e) => events.push(e.topic));
    const one = await deliver('waiter', [a.id]);
    off();
    expect(one.status).toBe(200);
    expect(one.body.order.items.find((i) => i.id === a.id)!.status).toBe('entregado');
    expect(one.body.order.items.find((i) => i.id === b.id)!.status).toBe('listo');
    expect(events).toContain('board');
    // "Entregar todo lo listo" may resend one already delivered: it is skipped, not refused.
    const all = await deliver('waiter', [a.id, b.id]);
    expect(all.status).toBe(200);
    expect(all.body.order.items.every((i) => i.status === 'entregado')).toBe(true);
    const c = await add('waiter', order.id, 'Margarita', 1);
    await setStatus(order.id, c.id, 'listo');
    expect((await voidUnits('waiter', order.id, c.id, { quantity: 1, reason: 'Otro', pin: server.users.admin.pin })).status).toBe(200);
    expect((await deliver('waiter', [c.id])).status).toBe(409);
    expect((await deliver('waiter', ['no-existe'])).status).toBe(404);
    const d = await add('waiter', order.id, 'Margarita', 1);
    await setStatus(order.id, d.id, 'listo');
    expect((await deliver('admin', [d.id])).status).toBe(200);
    const audit = await db()
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_id', '=', a.id)
      .where('action', '=', 'item.status_changed')
      .orderBy('seq')
      .execute();
    expect(audit.at(-1)!.actor_id).toBe(server.users.waiter.id);
  });

  it('the boards show a voided item as cancelled for a few minutes, then not at all', async () => {
    const order = await fresh();
    const item = await add('waiter', order.id, 'Tacos al pastor (3)', 3);
    // Notes of its own: the same tacos would raise the pending line instead of a second one.
    const deleted = (
      await api.waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, {
        productId: product('Tacos al pastor (3)').id,
        quantity: 1,
        notes: 'otra',
      })
    ).body.order.items.at(-1)!;
    expect((await voidUnits('waiter', order.id, item.id, { quantity: 1, reason: 'Error de captura' })).status).toBe(200);
    // A SPEC delete (no reason) still never shows.
    expect((await api.waiter.post(`/api/orders/${order.id}/items/${deleted.id}/delete`, { pin: server.users.admin.pin })).status).toBe(200);
    const board = async () =>
      (await api.kitchen.get<BoardResponse>('/api/board?station=cocina')).body.items.filter((i) => i.orderId === order.id);
    const shown = await board();
    expect(shown.map((i) => [i.quantity, i.cancelled ?? false])).toEqual([
      [2, false],
      [1, true],
    ]);
    expect(shown[1]!.voidReason).toBe('Error de captura');
    const panel = await api.admin.get<BoardResponse>('/api/board?view=panel');
    expect(panel.body.items.filter((i) => i.orderId === order.id)).toHaveLength(1);
    await db()
      .updateTable('order_items')
      .set({ deleted_at: Date.now() - VOID_BOARD_RETENTION_MS - 1 })
      .where('order_id', '=', order.id)
      .where('is_deleted', '=', 1)
      .execute();
    expect((await board()).map((i) => i.quantity)).toEqual([2]);
  });

  it('a partial void of a printed item prints one cancelation slip with exactly the voided units', async () => {
    const now = Date.now();
    const { id: printerId } = await insertPrinter(db(), { name: 'Cocina prueba', role: 'cocina', created_at: now });
    try {
      const order = await fresh();
      const item = await add('waiter', order.id, 'Tacos al pastor (3)', 3);
      const key = randomUUID();
      const body = { quantity: 2, reason: 'Error de captura' };
      const first = await api.waiter.post(`/api/orders/${order.id}/items/${item.id}/void`, body, { 'idempotency-key': key });
      const retry = await api.waiter.post(`/api/orders/${order.id}/items/${item.id}/void`, body, { 'idempotency-key': key });
      expect([first.status, retry.status]).toEqual([200, 200]);
      const jobs = await db().selectFrom('print_jobs').selectAll().where('order_id', '=', order.id).orderBy('seq').execute();
      expect(jobs.map((j) => j.kind)).toEqual(['comanda', 'cancelacion']);
      const slip = JSON.parse(jobs[1]!.document) as { cancel: boolean; lines: { itemId: string; quantity: number }[] };
      expect(slip.cancel).toBe(true);
      expect(slip.lines).toHaveLength(1);
      expect(slip.lines[0]!.quantity).toBe(2);
      expect(slip.lines[0]!.itemId).not.toBe(item.id);
      // An item never printed gets no slip.
      await db().updateTable('printers').set({ enabled: 0 }).where('id', '=', printerId).execute();
      // A line of its own (notes): the same tacos would raise the printed pending line instead.
      const quiet = (
        await api.waiter.post<{ order: Order }>(`/api/orders/${order.id}/items`, {
          productId: product('Tacos al pastor (3)').id,
          quantity: 2,
          notes: 'sin imprimir',
        })
      ).body.order.items.at(-1)!;
      await db().updateTable('printers').set({ enabled: 1 }).where('id', '=', printerId).execute();
      expect((await voidUnits('waiter', order.id, quiet.id, { quantity: 1, reason: 'Otro' })).status).toBe(200);
      expect(await db().selectFrom('print_jobs').select('id').where('order_id', '=', order.id).execute()).toHaveLength(2);
    } finally {
      await db().deleteFrom('print_jobs').where('printer_id', '=', printerId).execute();
      await db().deleteFrom('printers').where('id', '=', printerId).execute();
    }
  });

  it('the admin edits the reason list; voids then take only listed reasons', async () => {
    const initial = await api.waiter.get<{ reasons: string[] }>('/api/config/void-reasons');
    expect(initial.body.reasons).toEqual([...DEFAULT_VOID_REASONS]);
    expect((await api.waiter.put('/api/config/void-reasons', { reasons: ['Otro'] })).status).toBe(403);
    expect((await api.admin.put<Err>('/api/config/void-reasons', { reasons: ['  '] })).status).toBe(400);
    expect((await api.admin.put<Err>('/api/config/void-reasons', { reasons: ['Otro', 'OTRO'] })).status).toBe(400);
    const saved = await api.admin.put<{ reasons: string[] }>('/api/config/void-reasons', {
      reasons: [...DEFAULT_VOID_REASONS, ' Se cayó '],
    });
    expect(saved.body.reasons.at(-1)).toBe('Se cayó');
    const order = await fresh();
    const item = await add('waiter', order.id, 'Cerveza clara', 2);
    expect((await voidUnits('waiter', order.id, item.id, { quantity: 1, reason: 'se cayó' })).body.order.items.at(-1)!.voidReason).toBe(
      'Se cayó',
    );
    await api.admin.put('/api/config/void-reasons', { reasons: [...DEFAULT_VOID_REASONS] });
    expect((await voidUnits('waiter', order.id, item.id, { quantity: 1, reason: 'Se cayó' })).status).toBe(400);
  });
});
