import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Table } from '@comanda/contract';
import { startTestServer, testDatabaseKinds, type ApiClient, type TestServer } from '../src/testing/index.ts';
import { insertCardPayment, insertDrawerSession } from '../src/testing/factories.ts';
import { claimKeyLockingTable, claimKeyThenLockTable } from '../src/features/checkout/claim-and-lock.ts';
import { responseRider, storeResponse, type StoredResponse } from '../src/http/idempotency.ts';
import { attachToDrawer, DRAWER_CONFIG_KEY, DRAWER_ID } from '../src/model/drawer/drawer-store.ts';
import { newId } from '../src/http/ids.ts';
import { writeConfig } from '../src/model/config-store.ts';
import type { Trx } from '../src/http/transaction.ts';

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
  const rolledBack = async <T>(work: (trx: Trx) => Promise<T>, left: (trx: Trx) => Promise<unknown>) => {
    const rollback = new Error('rollback');
    return server.ctx.db.db
      .transaction()
      .execute(async (trx: Trx) => {
        let outcome: unknown;
        try {
          outcome = { answered: await work(trx) };
        } catch (error) {
          const e = error as { code?: string; statusCode?: number; message: string };
          outcome = { refused: { code: e.code ?? null, statusCode: e.statusCode ?? null, message: e.message } };
        }
        throw Object.assign(rollback, { seen: { outcome, left: await left(trx) } });
      })
      .catch((error: unknown) => {
        if (error !== rollback) throw error;
        return (error as Error & { seen: { outcome: unknown; left: unknown } }).seen;
      });
  };

  describe('the key’s claim with the table’s lock', () => {
    type Claim = Parameters<typeof claimKeyLockingTable>[1];
    const leftBy = (key: string, tableId: string) => async (trx: Trx) => ({
      table: await trx.selectFrom('tables').select(['updated_at']).where('id', '=', tableId).executeTakeFirst(),
      key: await trx.selectFrom('idempotency_keys').selectAll().where('key', '=', key).executeTakeFirst(),
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
      return inOne as { outcome: { answered?: StoredResponse | null; refused?: { code: string } }; left: Record<string, unknown> };
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

    it('claims a new key and locks the order’s table', async () => {
      const first = claim();
      const seen = await both(first);
      expect(seen.outcome).toEqual({ answered: null });
      expect(seen.left).toMatchObject({ table: { updated_at: NOW }, key: { key: first.key, status_code: null, response: null } });
    });

    it('answers a repeat from the stored answer and leaves the table alone', async () => {
      const repeat = claim();
      const seen = await both(repeat, claimedBefore(repeat, answer));
      expect(seen.outcome).toEqual({ answered: answer });
      expect(Number((seen.left.table as { updated_at: number }).updated_at)).not.toBe(NOW);
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
      expect((await both(claim(), charge('approved'))).outcome).toEqual({ answered: null });
    });

    it('claims the key of an order that does not exist and locks nothing: the order’s claim answers it', async () => {
      const nowhere = claim({ orderId: newId() });
      const seen = await both(nowhere);
      expect(seen.outcome).toEqual({ answered: null });
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
});
