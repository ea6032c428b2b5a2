import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Table } from '@comanda/contract';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { insertCardPayment, insertDrawerSession, printerRow } from '../src/testing/factories.ts';
import { closeOrderInTx } from '../src/model/checkout/close-order.ts';
import { openReadyOrder } from './terminals-helpers.ts';
import { claimKeyLockingTable, claimKeyThenLockTable } from '../src/features/checkout/claim-and-lock.ts';
import { responseRider, storeResponse, type StoredResponse } from '../src/http/idempotency.ts';
import { attachToDrawer, DRAWER_CONFIG_KEY, DRAWER_ID } from '../src/model/drawer/drawer-store.ts';
import { newId } from '../src/http/ids.ts';
import { writeConfig } from '../src/model/config-store.ts';
import type { Trx } from '../src/http/transaction.ts';
import { readThenRollBack } from '../src/testing/reads.ts';

/**
 * A cash close's first and last statements (issue 20 item 1): on PostgreSQL the key's claim takes
 * the table's lock in the same statement, and the drawer's lock carries the payment's link and the
 * stored answer. Each must leave exactly what the statements in turn leave (SQLite's way).
 */
describe.each(testDatabaseKinds())('a cash close’s first and last statements on %s', (kind) => {
  let server: TestServer;
  let admin: ApiClient;
  let waiter: ApiClient;
  let table: Table;
  let order: Order;
  const NOW = 1_800_000_000_000;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.login(server.users.admin.email);
    waiter = await server.login(server.users.waiter.email);
    table = (await admin.post<{ table: Table }>('/api/tables', { number: 342 })).body.table;
    order = (await waiter.post<{ order: Order }>(`/api/tables/${table.id}/open`)).body.order;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  /** Runs `work` in a transaction that is always rolled back; what it returned or threw, and what it left. */
  const rolledBack = async <T>(work: (trx: Trx) => Promise<T>, left: (trx: Trx) => Promise<unknown>) =>
    readThenRollBack(server.ctx.db, async (trx: Trx) => {
      let outcome: unknown;
      try {
        outcome = { answered: await work(trx) };
      } catch (error) {
        const e = error as { code?: string; statusCode?: number; message: string };
        outcome = { refused: { code: e.code ?? null, statusCode: e.statusCode ?? null, message: e.message } };
      }
      return { outcome, left: await left(trx) };
    });

  /**
   * The drawer as a close finds it, inside the rolled-back transaction: the close's key claimed, the
   * open session cleared and, for 'open', a session of its own opened (version 3); drawer control as given.
   */
  const drawerScene = async (trx: Trx, key: string, session: 'open' | 'none', control: boolean) => {
    await trx
      .insertInto('idempotency_keys')
      .values({ key, scope: 's', request_hash: 'h', status_code: null, response: null, created_at: NOW })
      .execute();
    await trx.updateTable('drawer_sessions').set({ open_drawer_id: null }).where('open_drawer_id', '=', DRAWER_ID).execute();
    if (session === 'open') {
      const opener = await trx.selectFrom('users').select(['id', 'display_name']).where('role', '=', 'admin').executeTakeFirstOrThrow();
      await insertDrawerSession(trx, {
        id: 'session-under-test',
        opened_by: opener.id,
        opened_by_name: opener.display_name,
        opened_at: NOW - 60_000,
        version: 3,
      });
    }
    await writeConfig(trx, DRAWER_CONFIG_KEY, { enabled: control }, NOW);
  };

  describe('the key’s claim with the table’s lock and the order’s claim', () => {
    type Claim = Parameters<typeof claimKeyLockingTable>[1];
    const leftBy = (key: string, tableId: string) => async (trx: Trx) => ({
      table: await trx.selectFrom('tables').select(['updated_at']).where('id', '=', tableId).executeTakeFirst(),
      key: await trx.selectFrom('idempotency_keys').selectAll().where('key', '=', key).executeTakeFirst(),
      order: await trx.selectFrom('orders').select(['version', 'updated_at', 'status']).where('id', '=', order.id).executeTakeFirst(),
    });
    /** The same claim both ways, each rolled back after `before` set the scene: equal, and what it was. */
    const both = async (input: Claim, before: (trx: Trx) => Promise<void> = async () => {}) => {
      const run = (claim: typeof claimKeyThenLockTable) =>
        rolledBack(
          async (trx) => {
            await before(trx);
            return claim(trx, input);
          },
          leftBy(input.key, table.id),
        );
      const inOne = await run(claimKeyLockingTable);
      expect(inOne).toStrictEqual(await run(claimKeyThenLockTable));
      return inOne as {
        outcome: { answered?: { stored?: StoredResponse; order?: Record<string, unknown> }; refused?: { code: string } };
        left: Record<string, unknown>;
      };
    };
    const claim = (over: Partial<Claim> = {}): Claim => ({
      key: newId(),
      scope: `order-close:${order.id}`,
      hash: 'h1',
      now: NOW,
      orderId: order.id,
      ...over,
    });
    const answer: StoredResponse = { statusCode: 200, body: { order: { id: 'closed-before' } } };
    const claimedBefore = (input: Claim, stored: StoredResponse | null) => async (trx: Trx) => {
      await trx
        .insertInto('idempotency_keys')
        .values({
          key: input.key,
          scope: input.scope,
          request_hash: 'h1',
          status_code: stored?.statusCode ?? null,
          response: stored ? JSON.stringify(stored.body) : null,
          created_at: NOW - 1_000,
        })
        .execute();
    };

    it('claims a new key, locks the order’s table and claims the order', async () => {
      const first = claim();
      const seen = await both(first);
      const before = await server.ctx.db.db.selectFrom('orders').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow();
      // The order as the claim's own UPDATE returns it (same names, values and types both ways: toStrictEqual above).
      expect(seen.outcome.answered).toEqual({
        order: {
          id: order.id,
          table_id: table.id,
          version: Number(before.version) + 1,
          waiter_id: before.waiter_id,
          people_count: before.people_count,
          discount: before.discount,
          comp: before.comp,
          share_amount: before.share_amount,
          shared_out: before.shared_out,
        },
      });
      expect(seen.left).toMatchObject({
        table: { updated_at: NOW },
        key: { key: first.key, status_code: null, response: null },
        order: { version: Number(before.version) + 1, updated_at: NOW, status: 'activo' },
      });
    });

    it('answers a repeat from the stored answer and leaves the table alone', async () => {
      const repeat = claim();
      const seen = await both(repeat, claimedBefore(repeat, answer));
      expect(seen.outcome).toEqual({ answered: { stored: answer } });
      expect(Number((seen.left.table as { updated_at: number }).updated_at)).not.toBe(NOW);
      expect(Number((seen.left.order as { updated_at: number }).updated_at)).not.toBe(NOW);
    });

    it('refuses a key used for another request, and a repeat whose first answer is not there yet', async () => {
      const reused = claim({ hash: 'h2' });
      expect((await both(reused, claimedBefore(reused, answer))).outcome.refused?.code).toBe('idempotency_key_reused');
      const early = claim();
      expect((await both(early, claimedBefore(early, null))).outcome.refused?.code).toBe('idempotency_in_flight');
    });

    it('refuses while a card charge is on the terminal or awaits review, from the lock it took', async () => {
      const charge = (state: string) => async (trx: Trx) => {
        await insertCardPayment(trx, order.id, { amount: 10_000, created_by: null, created_at: NOW - 5_000, state });
      };
      const live = await both(claim(), charge('pending'));
      expect(live.outcome.refused?.code).toBe('card_payment_in_progress');
      const review = await both(claim(), charge('needs_review'));
      expect(review.outcome.refused?.code).toBe('card_payment_needs_review');
      // A finished charge refuses nothing.
      expect((await both(claim(), charge('approved'))).outcome.answered?.order).toMatchObject({ id: order.id });
    });

    it('refuses an order that is no longer activo after locking its table, as the claim in turn does', async () => {
      const paid = async (trx: Trx) => {
        await trx.updateTable('orders').set({ status: 'pagado' }).where('id', '=', order.id).execute();
      };
      const seen = await both(claim(), paid);
      expect(seen.outcome.refused).toMatchObject({ code: 'order_paid', statusCode: 409 });
      expect(seen.left).toMatchObject({ table: { updated_at: NOW } });
    });

    it('claims the key of an order that does not exist and locks nothing: the order’s refusal answers it', async () => {
      const nowhere = claim({ orderId: newId() });
      const seen = await both(nowhere);
      expect(seen.outcome.refused).toMatchObject({ code: 'not_found', statusCode: 404 });
      expect(seen.left).toMatchObject({ key: { key: nowhere.key } });
      expect(Number((seen.left.table as { updated_at: number }).updated_at)).not.toBe(NOW);
    });
  });

  describe('the drawer’s lock with the payment’s link and the stored answer', () => {
    /** A payment of the order and its claimed key, written before the attach (as the close has by then). */
    const scene = (paymentId: string, key: string, session: 'open' | 'none', control: boolean) => async (trx: Trx) => {
      await trx
        .insertInto('payments')
        .values({
          id: paymentId,
          order_id: order.id,
          method: 'efectivo',
          amount: 10_000,
          received_amount: 10_000,
          change_amount: 0,
          tip_amount: 0,
          tip_bps: 0,
          cashier_id: null,
          cashier_name: null,
          provider_payment_id: null,
          created_at: NOW,
          reference: null,
        })
        .execute();
      await drawerScene(trx, key, session, control);
    };
    const attachBoth = async (session: 'open' | 'none', control: boolean) => {
      const run = (riding: boolean) => {
        const paymentId = newId();
        const key = newId();
        const emitted: unknown[] = [];
        const response: StoredResponse = { statusCode: 200, body: { order: { id: order.id, folio: 7 } } };
        return rolledBack(
          async (trx) => {
            await scene(paymentId, key, session, control)(trx);
            const input = { orderId: order.id, now: NOW, emit: (e: unknown) => void emitted.push(e) } as Parameters<
              typeof attachToDrawer
            >[1];
            if (riding) await attachToDrawer(trx, { ...input, paymentId, riders: [responseRider(trx, key, response)] });
            else {
              // In turn: the session read back by the order's newest payment, the answer stored after.
              await attachToDrawer(trx, input);
              await storeResponse(trx, key, response);
            }
            return emitted;
          },
          async (trx) => ({
            sessions: await trx.selectFrom('drawer_sessions').select(['id', 'version', 'open_drawer_id']).orderBy('id').execute(),
            links: (await trx.selectFrom('drawer_payments').selectAll().where('payment_id', '=', paymentId).execute()).map((l) => ({
              ...l,
              payment_id: l.payment_id === paymentId ? 'this payment' : l.payment_id,
            })),
            answer: await trx.selectFrom('idempotency_keys').select(['status_code', 'response']).where('key', '=', key).executeTakeFirst(),
          }),
        );
      };
      const riding = await run(true);
      const inTurn = await run(false);
      // A refusal rolls the whole close back: only what it says is compared (the riders had run on PostgreSQL).
      if ('refused' in (riding.outcome as object)) expect(riding.outcome).toStrictEqual(inTurn.outcome);
      else expect(riding).toStrictEqual(inTurn);
      return riding as { outcome: { answered?: unknown[]; refused?: { code: string } }; left: Record<string, unknown[] | unknown> };
    };

    it('with a session open: the session locked and versioned, the payment linked, the answer stored, the drawer told', async () => {
      const seen = await attachBoth('open', true);
      expect(seen.outcome.answered).toEqual([{ topic: 'drawer', type: 'drawer.updated', id: 'session-under-test', version: 4 }]);
      expect(seen.left.links).toEqual([{ payment_id: 'this payment', session_id: 'session-under-test', created_at: NOW }]);
      expect(seen.left.answer).toMatchObject({ status_code: 200 });
    });

    it('with no session: refused when drawer control is on (nothing stored), the answer stored when it is off', async () => {
      const refused = await attachBoth('none', true);
      expect(refused.outcome.refused?.code).toBe('drawer_closed');
      const off = await attachBoth('none', false);
      expect(off.outcome.answered).toEqual([]);
      expect(off.left.links).toEqual([]);
      expect(off.left.answer).toMatchObject({ status_code: 200 });
    });
  });
  describe('the whole cash close, its drawer folded into its last statement', () => {
    /** A ready order, a caja printer, an open drawer (or none) under control, and the close's claimed key: set inside the rolled-back transaction. */
    const scene = (key: string, session: 'open' | 'none') => async (trx: Trx) => {
      await trx
        .insertInto('printers')
        .values(printerRow({ id: 'caja-under-test', name: 'Caja', role: 'caja', created_at: NOW }))
        .execute();
      await drawerScene(trx, key, session, true);
    };
    const withoutIds = <T extends Record<string, unknown>>(rows: T[]) => rows.map(({ id: _id, seq: _seq, ...rest }) => rest);
    const closeBoth = async (ready: Order, session: 'open' | 'none') => {
      const ctx = { ...server.ctx, clock: { now: () => NOW } };
      const cashier = await server.ctx.db.db
        .selectFrom('users')
        .select(['id', 'display_name'])
        .where('role', '=', 'waiter')
        .executeTakeFirstOrThrow();
      const run = (hooked: boolean) => {
        const key = newId();
        const emitted: unknown[] = [];
        const answer = (o: Order): StoredResponse => ({ statusCode: 200, body: { order: o } });
        return rolledBack(
          async (trx) => {
            await scene(key, session)(trx);
            const emit = (e: unknown) => void emitted.push(e);
            const input = {
              orderId: ready.id,
              paymentId: 'payment-under-test',
              method: 'efectivo' as const,
              tipBps: 1000,
              peopleCount: 2,
              receivedAmount: 100_000,
              cashier: { id: cashier.id, name: cashier.display_name },
              providerPaymentId: null,
              actor: { id: cashier.id, displayName: cashier.display_name },
              emit,
            };
            if (hooked) {
              const closed = await closeOrderInTx(ctx, trx, { ...input, drawer: { riders: (o) => [responseRider(trx, key, answer(o))] } });
              return { closed, emitted };
            }
            // In turn: the close, then the drawer's attach, then the answer stored.
            const closed = await closeOrderInTx(ctx, trx, input);
            await attachToDrawer(trx, { orderId: ready.id, now: NOW, emit, paymentId: 'payment-under-test' });
            await storeResponse(trx, key, answer(closed));
            return { closed, emitted };
          },
          async (trx) => ({
            order: await trx.selectFrom('orders').selectAll().where('id', '=', ready.id).executeTakeFirst(),
            payments: await trx.selectFrom('payments').selectAll().where('order_id', '=', ready.id).execute(),
            sessions: await trx.selectFrom('drawer_sessions').select(['id', 'version', 'open_drawer_id']).orderBy('id').execute(),
            links: await trx.selectFrom('drawer_payments').selectAll().where('payment_id', '=', 'payment-under-test').execute(),
            answer: (
              await trx.selectFrom('idempotency_keys').select(['status_code', 'response']).where('created_at', '=', NOW).execute()
            ).map((k) => ({ ...k, response: k.response && (JSON.parse(k.response) as unknown) })),
            audit: withoutIds(await trx.selectFrom('audit_log').selectAll().where('at', '=', NOW).execute()),
            jobs: withoutIds(await trx.selectFrom('print_jobs').selectAll().where('created_at', '=', NOW).execute()),
            table: await trx.selectFrom('tables').selectAll().where('id', '=', ready.tableId).executeTakeFirst(),
            sales: await trx.selectFrom('report_sales').selectAll().orderBy('slot').execute(),
            products: await trx.selectFrom('report_products').selectAll().orderBy('slot').orderBy('product_id').execute(),
            waiters: await trx.selectFrom('report_waiters').selectAll().orderBy('slot').orderBy('waiter_key').execute(),
            methods: await trx.selectFrom('report_methods').selectAll().orderBy('slot').orderBy('method').execute(),
          }),
        );
      };
      const hooked = await run(true);
      const inTurn = await run(false);
      if ('refused' in (hooked.outcome as object)) expect(hooked.outcome).toStrictEqual(inTurn.outcome);
      else expect(hooked).toStrictEqual(inTurn);
      return hooked as {
        outcome: { answered?: { closed: Order; emitted: { topic: string }[] }; refused?: { code: string } };
        left: { links: unknown[]; jobs: unknown[]; audit: unknown[]; answer: { status_code: number | null }[]; sales: unknown[] };
      };
    };

    it('writes what the close and the attach in turn write: order, payment, link, answer, audit, ticket, reports; the drawer told last', async () => {
      const tableRow = (await admin.post<{ table: Table }>('/api/tables', { number: 344 })).body.table;
      expect(tableRow.number).toBe(344);
      const ready = await openReadyOrder(server, admin, waiter, 344);
      const seen = await closeBoth(ready, 'open');
      expect(seen.outcome.answered?.closed).toMatchObject({ id: ready.id, status: 'pagado' });
      expect(seen.outcome.answered?.emitted.map((e) => e.topic).at(-1)).toBe('drawer');
      expect(seen.left.links).toHaveLength(1);
      expect(seen.left.jobs).toHaveLength(1);
      expect(seen.left.audit).toHaveLength(1);
      expect(seen.left.answer).toMatchObject([{ status_code: 200 }]);
      expect(seen.left.sales.length).toBeGreaterThan(0);
      // With no session open and drawer control on: refused, whichever way.
      expect((await closeBoth(ready, 'none')).outcome.refused?.code).toBe('drawer_closed');
    });
  });
});
