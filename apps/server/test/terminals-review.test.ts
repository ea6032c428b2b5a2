import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CardPayment, CardReview, Order, Table } from '@comanda/contract';
import { assertInvariants, testDatabaseKinds, type ApiClient, type TerminalCharge, type TestServer } from '../src/testing/index.ts';
import { type Simulator } from '../src/payments/mercadopago/simulator/server.ts';
import { insertProduct } from '../src/testing/factories.ts';
import { type CardServer, cardVerbs, startCardServer, key, openReadyOrder, type Err } from './terminals-helpers.ts';
import { auditEntryCount } from '../src/testing/reads.ts';

const FROZEN = 'Hay un cobro con tarjeta en curso para esta orden. Espera a que termine o cancélalo.';
const REVIEW_PENDING =
  'Hay un cobro con tarjeta aprobado por revisar en esta orden. Un administrador debe registrarlo como pago o marcarlo como reembolsado antes de cobrar de nuevo.';

/**
 * Issue 13, defect 2: a customer charged twice. While a card payment is live the order is
 * frozen; an approved charge is always recorded (the order's payment, or kept for review with
 * its amount); a charge in review is visible everywhere and blocks any further charge until an
 * admin records it or marks it refunded. After each scenario the money the simulated terminal
 * took equals the card payments recorded.
 */
describe.each(testDatabaseKinds())('card charges are never lost nor taken twice on %s', (kind) => {
  let sim: Simulator;
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  const { newTerminal, act, pay, getPayment, untilState, getOrder, providerIdOf } = cardVerbs(
    () => ({ sim, server, admin, reader: admin }),
    `REVIEW${kind.toUpperCase()}`,
  );
  const cashClose = (api: ApiClient, orderId: string, receivedAmount: number) =>
    api.post<{ order: Order } & Err>(
      `/api/orders/${orderId}/close`,
      { method: 'efectivo', pin: server.users.waiter.pin, tipBps: 0, peopleCount: 1, receivedAmount },
      { 'idempotency-key': key() },
    );
  const active = async (api: ApiClient, orderId: string) =>
    (await api.get<{ payment: CardPayment | null; needsReview: CardPayment[] }>(`/api/card-payments?orderId=${orderId}`)).body;
  const tableOf = async (api: ApiClient, number: number) =>
    (await api.get<{ tables: Table[] }>('/api/tables')).body.tables.find((t) => t.number === number)!;
  const auditCount = (action: string, entityId: string) => auditEntryCount(server.ctx.db.db, action, entityId);
  /** Every charge the simulated terminal approved (refunded ones too: the money was taken). */
  const terminalCharges = (): TerminalCharge[] =>
    [...sim.store.payments.values()]
      .filter((p) => (p.status === 'approved' || p.status === 'refunded') && !p.externalReference.startsWith('test-'))
      .map((p) => ({ externalReference: p.externalReference, paymentId: p.paymentId, amountCents: p.amountCents }));
  const moneyHolds = () => assertInvariants(server.ctx.db, { terminalCharges: terminalCharges() });
  const product = async (name: string, price: number) =>
    (await insertProduct(server.ctx.db.db, { id: `p-${price}-${kind}`, name, price, category: 'Botella', created_at: Date.now() })).id;

  let card: CardServer | undefined;
  beforeAll(async () => {
    card = await startCardServer(kind, 'TEST-4821-review-token');
    ({ sim, server, admin, waiter } = card);
  });
  afterAll(() => card?.close());

  it('the reported steps: an item added while the customer holds the card is refused, and the card closes the order once', async () => {
    const terminalId = newTerminal();
    const order = await openReadyOrder(server, admin, waiter, 1, await product('Botella de 169', 169_00));
    expect(order.subtotal).toBe(169_00);
    const started = await pay(waiter, { orderId: order.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 });
    expect(started.status).toBe(201);
    const providerId = await providerIdOf(started.body.payment.id);
    act(providerId, 'tap');

    // While the customer holds the card nothing may change what the terminal charges for.
    const bottle = await product('Botella de 200', 200_00);
    const added = await waiter.post<Err>(`/api/orders/${order.id}/items`, { productId: bottle, quantity: 1 });
    expect(added.status).toBe(409);
    expect(added.body.error).toEqual({ code: 'order_frozen', message: FROZEN });
    const units = await admin.post<Err>(`/api/orders/${order.id}/items/${order.items[0]!.id}/units`, { quantity: 1 });
    expect(units.status).toBe(409);
    expect(units.body.error.message).toBe(FROZEN);
    const deleted = await admin.post<Err>(`/api/orders/${order.id}/items/${order.items[0]!.id}/delete`, { pin: server.users.admin.pin });
    expect(deleted.status).toBe(409);
    expect(deleted.body.error.message).toBe(FROZEN);
    const discounted = await admin.post<Err>(`/api/orders/${order.id}/adjustments`, {
      kind: 'discount',
      scope: 'order',
      percentBps: 1000,
      reason: 'Cliente frecuente',
      pin: server.users.admin.pin,
    });
    expect(discounted.status).toBe(409);
    expect(discounted.body.error.message).toBe(FROZEN);
    expect(await server.ctx.db.db.selectFrom('order_adjustments').select('id').where('order_id', '=', order.id).execute()).toEqual([]);
    // The guest count and the table name do not change the amount: still allowed.
    expect((await waiter.patch(`/api/orders/${order.id}`, { peopleCount: 3, tableName: 'Cumpleaños' })).status).toBe(200);
    expect((await getOrder(order.id)).items).toHaveLength(1);

    act(providerId, 'approve');
    await untilState(started.body.payment.id, 'approved');
    const paid = await getOrder(order.id);
    expect(paid).toMatchObject({ status: 'pagado', subtotal: 169_00, total: 169_00 });
    expect(paid.payments).toEqual([expect.objectContaining({ method: 'tarjeta', amount: 169_00, cashierId: 'mp-terminal' })]);
    // The cash close of the report can no longer take the money a second time.
    const cash = await cashClose(waiter, order.id, 369_00);
    expect(cash.status).toBe(409);
    expect(cash.body.error.message).toBe('La orden ya fue pagada');
    expect((await getOrder(order.id)).payments).toHaveLength(1);
    await moneyHolds();
  });

  it('after the payment ends (cancelled or rejected) the order can be edited again', async () => {
    const terminalId = newTerminal();
    const order = await openReadyOrder(server, admin, waiter, 2);
    const started = await pay(waiter, { orderId: order.id, terminalId, method: 'tarjeta', tipBps: 1000, peopleCount: 1 });
    act(await providerIdOf(started.body.payment.id), 'tap', 'reject');
    await untilState(started.body.payment.id, 'rejected');
    const flan = await server.ctx.db.db.selectFrom('products').select('id').where('name', '=', 'Flan napolitano').executeTakeFirstOrThrow();
    expect((await waiter.post(`/api/orders/${order.id}/items`, { productId: flan.id, quantity: 1 })).status).toBe(200);
    await moneyHolds();
  });

  it('a payment whose dialog timed out keeps the order frozen while the terminal holds it, and frees it once it is over', async () => {
    const terminalId = newTerminal();
    const order = await openReadyOrder(server, admin, waiter, 7);
    const started = await pay(waiter, { orderId: order.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 });
    const providerId = await providerIdOf(started.body.payment.id);
    act(providerId, 'tap');
    await untilState(started.body.payment.id, 'timeout');
    const flan = await server.ctx.db.db.selectFrom('products').select('id').where('name', '=', 'Flan napolitano').executeTakeFirstOrThrow();
    const held = await waiter.post<Err>(`/api/orders/${order.id}/items`, { productId: flan.id, quantity: 1 });
    expect(held.status).toBe(409);
    expect(held.body.error.message).toBe(FROZEN);
    // The customer gives up at the terminal: the next edit asks the provider first and goes through.
    act(providerId, 'cancel');
    expect((await waiter.post(`/api/orders/${order.id}/items`, { productId: flan.id, quantity: 1 })).status).toBe(200);
    expect((await getPayment(started.body.payment.id)).state).toBe('expired');
    await moneyHolds();
  });

  it('an add racing the start of a card payment: either the item is in the amount or the add is refused', async () => {
    const flan = await server.ctx.db.db.selectFrom('products').select('id').where('name', '=', 'Flan napolitano').executeTakeFirstOrThrow();
    for (const number of [3, 4]) {
      const terminalId = newTerminal();
      const order = await openReadyOrder(server, admin, waiter, number);
      const [card, add] = await Promise.all([
        pay(waiter, { orderId: order.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 }),
        waiter.post<{ order: Order } & Err>(`/api/orders/${order.id}/items`, { productId: flan.id, quantity: 1 }),
      ]);
      if (add.status === 200) {
        // The item went in first: it is undelivered, so the card payment was refused by the gate, or it includes it.
        if (card.status === 201) expect(card.body.payment.amount).toBe(order.subtotal + 65_00);
        else expect(card.status).toBe(409);
      } else {
        expect(add.status).toBe(409);
        expect(add.body.error.message).toBe(FROZEN);
        expect(card.body.payment.amount).toBe(order.subtotal);
      }
      if (card.status === 201) await waiter.post(`/api/card-payments/${card.body.payment.id}/cancel`);
      await assertInvariants(server.ctx.db);
    }
  });

  it('a charge that cannot close its order is kept for review, shown everywhere, blocks new charges, and is recorded once', async () => {
    const terminalId = newTerminal();
    const order = await openReadyOrder(server, admin, waiter, 5, await product('Botella de 169', 169_00));
    const started = await pay(waiter, { orderId: order.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 });
    const providerId = await providerIdOf(started.body.payment.id);
    // The provider charges another amount than asked (170.00 for 169.00).
    sim.store.payments.get(providerId)!.amountCents = 170_00;
    act(providerId, 'tap', 'approve');
    const review = await untilState(started.body.payment.id, 'needs_review');
    expect(review).toMatchObject({
      approvedAmount: 170_00,
      amount: 169_00,
      message: 'La terminal cobró $170.00, distinto de los $169.00 solicitados.',
    });
    expect((await getOrder(order.id)).status).toBe('activo');
    await moneyHolds();

    // Visible: on the order after a reload, on the table card (admin and waiter), in the admin's list.
    const reloaded = await active(waiter, order.id);
    expect(reloaded.payment).toBeNull();
    expect(reloaded.needsReview.map((p) => p.id)).toEqual([started.body.payment.id]);
    expect((await tableOf(admin, 5)).order?.cardReviews).toBe(1);
    expect((await tableOf(waiter, 5)).order?.cardReviews).toBe(1);
    const list = await admin.get<{ reviews: CardReview[] }>('/api/card-payments/review');
    expect(list.status).toBe(200);
    expect(list.body.reviews.find((r) => r.id === started.body.payment.id)).toMatchObject({
      tableNumber: 5,
      orderStatus: 'activo',
      orderSubtotal: 169_00,
      approvedAmount: 170_00,
    });
    expect((await waiter.get('/api/card-payments/review')).status).toBe(403);

    // No second charge while it waits: neither cash nor another card payment.
    const cash = await cashClose(waiter, order.id, 200_00);
    expect(cash.status).toBe(409);
    expect(cash.body.error.message).toBe(REVIEW_PENDING);
    const again = await pay(waiter, { orderId: order.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(REVIEW_PENDING);

    // Settling is the admin's, with an Idempotency-Key; a repeat answers the same, audited once.
    const path = `/api/card-payments/${started.body.payment.id}/record`;
    expect((await waiter.post(path, undefined, { 'idempotency-key': key() })).status).toBe(403);
    expect((await admin.post(path)).status).toBe(400);
    const idem = key();
    const [first, twin] = await Promise.all([
      admin.post<{ payment: CardPayment; order: Order } & Err>(path, undefined, { 'idempotency-key': idem }),
      admin.post<{ payment: CardPayment; order: Order } & Err>(path, undefined, { 'idempotency-key': idem }),
    ]);
    const ok = [first, twin].find((r) => r.status === 200)!;
    expect(ok.body.payment.state).toBe('approved');
    expect(ok.body.order).toMatchObject({ status: 'pagado', subtotal: 169_00, tip: 1_00, total: 170_00 });
    expect(ok.body.order.payments).toEqual([
      expect.objectContaining({ amount: 170_00, cashierId: 'mp-terminal', providerPaymentId: review.providerPaymentId }),
    ]);
    const replay = await admin.post<{ order: Order }>(path, undefined, { 'idempotency-key': idem });
    expect(replay.status).toBe(200);
    expect(replay.body.order.id).toBe(order.id);
    const otherKey = await admin.post<Err>(path, undefined, { 'idempotency-key': key() });
    expect(otherKey.status).toBe(409);
    expect(otherKey.body.error.message).toBe('Este cobro ya no está por revisar');
    expect(await auditCount('card_payment.recorded', started.body.payment.id)).toBe(1);
    expect(await auditCount('order.closed', order.id)).toBe(1);
    expect((await active(admin, order.id)).needsReview).toEqual([]);
    await moneyHolds();
  });

  it('a charge short of the order is marked refunded at the terminal; then the order can be charged again', async () => {
    const terminalId = newTerminal();
    const order = await openReadyOrder(server, admin, waiter, 6, await product('Botella de 169', 169_00));
    const started = await pay(waiter, { orderId: order.id, terminalId, method: 'tarjeta', tipBps: 0, peopleCount: 1 });
    const providerId = await providerIdOf(started.body.payment.id);
    sim.store.payments.get(providerId)!.amountCents = 100_00;
    act(providerId, 'tap', 'approve');
    await untilState(started.body.payment.id, 'needs_review');
    expect((await tableOf(admin, 6)).order?.cardReviews).toBe(1);

    const record = await admin.post<Err>(`/api/card-payments/${started.body.payment.id}/record`, undefined, { 'idempotency-key': key() });
    expect(record.status).toBe(409);
    expect(record.body.error.message).toBe('El cobro aprobado ($100.00) no cubre los productos de la orden ($169.00).');
    expect((await getOrder(order.id)).status).toBe('activo');

    // Staff refund it on the terminal, then say so here.
    act(providerId, 'refund');
    const idem = key();
    const refunded = await admin.post<{ payment: CardPayment }>(
      `/api/card-payments/${started.body.payment.id}/refunded`,
      { note: 'Devuelto en la terminal, folio 123' },
      { 'idempotency-key': idem },
    );
    expect(refunded.status).toBe(200);
    expect(refunded.body.payment).toMatchObject({ state: 'refunded', message: 'Cobro reembolsado en la terminal', approvedAmount: 100_00 });
    const replay = await admin.post<{ payment: CardPayment }>(
      `/api/card-payments/${started.body.payment.id}/refunded`,
      { note: 'Devuelto en la terminal, folio 123' },
      { 'idempotency-key': idem },
    );
    expect(replay.status).toBe(200);
    expect(await auditCount('card_payment.refunded', started.body.payment.id)).toBe(1);
    expect((await tableOf(admin, 6)).order?.cardReviews).toBe(0);
    expect((await admin.get<{ reviews: CardReview[] }>('/api/card-payments/review')).body.reviews.map((r) => r.id)).not.toContain(
      started.body.payment.id,
    );

    const cash = await cashClose(waiter, order.id, 169_00);
    expect(cash.status).toBe(200);
    expect(cash.body.order.payments).toEqual([expect.objectContaining({ method: 'efectivo', amount: 169_00 })]);
    await moneyHolds();
  });
});
