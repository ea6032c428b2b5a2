import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddPaymentResponse, CardPayment, Corte, TipsResponse } from '@comanda/contract';
import { PIN_MESSAGES, TIP_MESSAGES } from '@comanda/domain';
import { testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { type Simulator } from '../src/payments/mercadopago/simulator/server.ts';
import { DRAWER_TEXT } from '../src/model/drawer/drawer-store.ts';
import { renderDocument } from '../src/features/printing/render.ts';
import type { MovementDocument } from '../src/model/printing/documents.ts';
import { type CardServer, startCardServer, approveOnTerminal, key, openReadyOrder, type Err } from './terminals-helpers.ts';

describe('tip payout slip', () => {
  it('prints who received the tips, and is signed by them', () => {
    const slip: MovementDocument = {
      type: 'movimiento',
      businessName: 'La Cantina',
      kind: 'propinas',
      recipient: 'Mario Mesero',
      amount: 220_00,
      reason: 'Entregadas a Mario Mesero',
      authorizedBy: 'Mario Mesero',
      createdBy: 'Ana Admin',
      at: Date.UTC(2026, 10, 21, 23, 0),
    };
    const text = Buffer.from(renderDocument(slip, { width: 80, jobNumber: 1, resend: false, timeZone: 'America/Mexico_City' })).toString(
      'latin1',
    );
    expect(text).toContain('COMPROBANTE DE PAGO DE PROPINAS');
    expect(text).toContain('$220.00');
    expect(text).toMatch(/Recibi.: Mario Mesero/);
    expect(text).toContain('Firma: Mario Mesero');
    expect(text).not.toContain('Autoriz');
  });
});

type Payout = { movement: { id: string; kind: string; amount: number; recipientName: string | null }; printJobs: number } & Err;

describe.each(testDatabaseKinds())('tips and tip payouts on %s', (kind) => {
  let sim: Simulator;
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  let terminalN = 0;

  let card: CardServer | undefined;
  beforeAll(async () => {
    card = await startCardServer(kind, 'TEST-7731-tips-token');
    ({ sim, server, admin, waiter } = card);
  });
  afterAll(() => card?.close());

  const tips = async (query = '') => (await admin.get<TipsResponse & Err>(`/api/drawer/tips${query}`)).body;
  const payout = (userId: string, amount: number, pin: string, idem = key()) =>
    admin.post<Payout>('/api/drawer/tips/payouts', { userId, amount, pin }, { 'idempotency-key': idem });
  const payoutRows = async (sessionId: string) =>
    (
      await server.ctx.db.db
        .selectFrom('drawer_movements')
        .select(['id', 'amount', 'recipient_id'])
        .where('session_id', '=', sessionId)
        .where('kind', '=', 'propinas')
        .execute()
    ).map((r) => ({ amount: Number(r.amount), recipient: r.recipient_id }));
  const corteX = async (id: string) => (await admin.get<{ corte: Corte }>(`/api/drawer/sessions/${id}`)).body.corte;

  /** Pays the whole order in one part; the tip is this part's. */
  const payWhole = async (table: number, method: 'efectivo' | 'transferencia', tipAmount: number) => {
    const order = await openReadyOrder(server, admin, waiter, table);
    const body = { method, pin: '1111', amount: order.balance, tipAmount, ...(method === 'efectivo' ? { receivedAmount: 1_000_000 } : {}) };
    const res = await waiter.post<AddPaymentResponse & Err>(`/api/orders/${order.id}/payments`, body, { 'idempotency-key': key() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.closed).toBe(true);
  };
  const payCard = async (table: number, tipBps: number) => {
    const order = await openReadyOrder(server, admin, waiter, table);
    const terminalId = sim.store.addTerminal(`PAX_A910__SMARTPOSTIPS${kind.toUpperCase()}${++terminalN}`).id;
    const res = await waiter.post<{ payment: CardPayment } & Err>(
      '/api/card-payments',
      { orderId: order.id, terminalId, method: 'tarjeta', tipBps, peopleCount: 1 },
      { 'idempotency-key': key() },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await approveOnTerminal({ sim, server }, waiter, res.body.payment.id);
    return order.subtotal;
  };

  it('tips per waiter by method; a payout with the waiter PIN, at most what is owed, once per key, out of the expected cash', async () => {
    const mario = server.users.waiter;
    // Without an open session nothing can be paid out.
    const early = await payout(mario.id, 100, mario.pin);
    expect(early.status).toBe(409);
    expect(early.body.error.message).toBe(DRAWER_TEXT.noSessionForMovement);

    const opened = await admin.post<{ session: { id: string } }>('/api/drawer/open', { count: { b50000: 1 } });
    const sessionId = opened.body.session.id;
    await payWhole(1, 'efectivo', 700);
    await payWhole(2, 'transferencia', 1500);
    const subtotal = await payCard(3, 1000);
    const cardTip = Math.round(subtotal * 0.1);

    const report = await tips();
    expect(report).toMatchObject({ sessionId, payable: true, pool: { enabled: false } });
    const row = report.rows.find((r) => r.userId === mario.id)!;
    expect(row).toMatchObject({ name: mario.displayName, cash: 700, card: cardTip, transfer: 1500, paid: 0, owed: cardTip + 1500 });
    const before = await corteX(sessionId);
    expect(before.figures.tipPayouts).toBe(0);

    // Over what is owed: refused in Spanish with the owed amount, nothing written.
    const over = await payout(mario.id, cardTip + 1501, mario.pin);
    expect(over.status).toBe(409);
    expect(over.body.error.message.startsWith(TIP_MESSAGES.overOwed)).toBe(true);
    // Another person's PIN, or a wrong one, is answered the same way.
    const lucia = server.users.waiter2;
    for (const pin of [lucia.pin, '9876']) {
      const wrong = await payout(mario.id, 100, pin);
      expect(wrong.status).toBe(403);
      expect(wrong.body.error.message).toBe(PIN_MESSAGES.wrong);
    }
    // Lucía served nothing: nothing is owed to her.
    const none = await payout(lucia.id, 100, lucia.pin);
    expect(none.status).toBe(409);
    expect(none.body.error.message).toBe(TIP_MESSAGES.nothingOwed);
    expect(await payoutRows(sessionId)).toEqual([]);

    // The payout, retried with the same key (the response was lost): one movement.
    const idem = key();
    const paid = await payout(mario.id, 1000, mario.pin, idem);
    expect(paid.status).toBe(200);
    expect(paid.body.movement).toMatchObject({ kind: 'propinas', amount: 1000, recipientName: mario.displayName });
    const retry = await payout(mario.id, 1000, mario.pin, idem);
    expect(retry.status).toBe(200);
    expect(retry.body.movement.id).toBe(paid.body.movement.id);
    expect(await payoutRows(sessionId)).toEqual([{ amount: 1000, recipient: mario.id }]);

    const after = await corteX(sessionId);
    expect(after.figures.tipPayouts).toBe(1000);
    expect(after.figures.expected).toBe(before.figures.expected - 1000);
    expect(after.session.movements.map((m) => m.kind)).toEqual(['propinas']);
    expect((await tips()).rows.find((r) => r.userId === mario.id)).toMatchObject({ paid: 1000, owed: cardTip + 500 });

    // The rest, exactly: then nothing more.
    expect((await payout(mario.id, cardTip + 500, mario.pin)).status).toBe(200);
    expect((await payout(mario.id, 1, mario.pin)).body.error.message).toBe(TIP_MESSAGES.nothingOwed);
    const audits = await server.ctx.db.db.selectFrom('audit_log').select('id').where('action', '=', 'drawer.propinas').execute();
    expect(audits).toHaveLength(2);

    // The corte Z keeps the payouts; the session's tips stay readable, no longer payable.
    const z = await admin.post<{ corte: Corte } & Err>(`/api/drawer/sessions/${sessionId}/corte-z`, {
      count: { b50000: 1 },
      comment: 'Conteo de prueba',
      cashierPin: '1111',
      adminPin: '1234',
    });
    expect(z.status).toBe(200);
    expect(z.body.corte.figures.tipPayouts).toBe(cardTip + 1500);
    const closed = await tips(`?sessionId=${sessionId}`);
    expect(closed.payable).toBe(false);
    expect(closed.totals).toMatchObject({ paid: cardTip + 1500, owed: 0 });
    const late = await payout(mario.id, 100, mario.pin);
    expect(late.status).toBe(409);

    // A range of business dates shows the same tips and payouts.
    const range = await tips(`?from=${closed.fromDate ?? new Date(server.ctx.clock.now()).toISOString().slice(0, 10)}`);
    expect(range.sessionId).toBeNull();
    const badRange = await admin.get<Err>('/api/drawer/tips?from=2026-05-02&to=2026-05-01');
    expect(badRange.status).toBe(422);
    expect(badRange.body.error.message).toBe(TIP_MESSAGES.badRange);
  });

  it('pooling by role shows each person’s share, sums to the pool, and caps each payout at that share', async () => {
    const bad = await admin.put<Err>('/api/drawer/tips/pool', { enabled: true, percents: { waiter: 80, kitchen: 10, barra: 5 } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain(TIP_MESSAGES.badPool);
    expect((await admin.put('/api/drawer/tips/pool', { enabled: true, percents: { waiter: 80, kitchen: 10, barra: 10 } })).status).toBe(
      200,
    );
    try {
      const opened = await admin.post<{ session: { id: string } }>('/api/drawer/open', { count: { b50000: 1 } });
      await payWhole(4, 'transferencia', 10001);
      const report = await tips();
      expect(report.pool).toMatchObject({ enabled: true, percents: { waiter: 80, kitchen: 10, barra: 10 } });
      const share = (id: string) => report.rows.find((r) => r.userId === id)?.share;
      expect(report.rows.reduce((a, r) => a + r.share, 0)).toBe(10001);
      expect(share(server.users.waiter.id)).toBe(8001);
      expect(share(server.users.kitchen.id)).toBe(1000);
      expect(share(server.users.barra.id)).toBe(1000);
      const cook = server.users.kitchen;
      expect((await payout(cook.id, 1001, cook.pin)).status).toBe(409);
      expect((await payout(cook.id, 1000, cook.pin)).status).toBe(200);
      expect((await tips()).rows.find((r) => r.userId === cook.id)).toMatchObject({ paid: 1000, owed: 0 });
      expect(await payoutRows(opened.body.session.id)).toEqual([{ amount: 1000, recipient: cook.id }]);
    } finally {
      await admin.put('/api/drawer/tips/pool', { enabled: false, percents: { waiter: 100, kitchen: 0, barra: 0 } });
    }
  });

  it('payouts racing each other for the same tips: exactly one is paid, the others are refused', async () => {
    const state = await admin.get<{ session: { id: string } | null }>('/api/drawer');
    const sessionId =
      state.body.session?.id ??
      (await admin.post<{ session: { id: string } }>('/api/drawer/open', { count: { b50000: 1 } })).body.session.id;
    await payWhole(5, 'transferencia', 3000);
    const mario = server.users.waiter;
    const owed = (await tips()).rows.find((r) => r.userId === mario.id)!.owed;
    const before = (await payoutRows(sessionId)).length;
    const results = await Promise.all([1, 2, 3, 4].map(() => payout(mario.id, owed, mario.pin)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    expect((await payoutRows(sessionId)).length).toBe(before + 1);
    expect((await tips()).rows.find((r) => r.userId === mario.id)?.owed).toBe(0);
  });

  it('a payout in cash never takes more than the drawer should hold, even when more is owed', async () => {
    const state = await admin.get<{ session: { id: string } | null }>('/api/drawer');
    if (state.body.session) {
      const closed = await admin.post<Err>(`/api/drawer/sessions/${state.body.session.id}/corte-z`, {
        count: {},
        comment: 'Conteo de prueba',
        cashierPin: '1111',
        adminPin: '1234',
      });
      expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    }
    const opened = await admin.post<{ session: { id: string } }>('/api/drawer/open', { count: { m1000: 1 } }); // $10
    const sessionId = opened.body.session.id;
    await payWhole(6, 'transferencia', 3000);
    const mario = server.users.waiter;
    expect((await tips()).rows.find((r) => r.userId === mario.id)?.owed).toBe(3000);

    const over = await payout(mario.id, 1500, mario.pin);
    expect(over.status).toBe(409);
    expect(over.body.error).toEqual({
      code: 'drawer_short',
      message: 'El pago de propinas es mayor al efectivo que debería haber en la caja: no se puede sacar más efectivo del que hay.',
    });
    expect(await payoutRows(sessionId)).toEqual([]);
    expect((await payout(mario.id, 1000, mario.pin)).status).toBe(200);
    expect((await payout(mario.id, 1, mario.pin)).body.error.code).toBe('drawer_short');
    expect(await payoutRows(sessionId)).toEqual([{ amount: 1000, recipient: mario.id }]);
    expect((await tips()).rows.find((r) => r.userId === mario.id)).toMatchObject({ paid: 1000, owed: 2000 });
    expect((await corteX(sessionId)).figures.expected).toBe(0);
  });
});
