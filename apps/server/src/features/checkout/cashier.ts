import { sql } from 'kysely';
import type { SessionUser } from '@comanda/contract';
import type { AppContext } from '../../http/context.ts';
import { notFound } from '../../http/errors.ts';
import {
  answerAttempt,
  attemptPin,
  judgedFrom,
  pinAttemptCall,
  pinBudgets,
  verifyPin,
  type AttemptRow,
  type PinUser,
  type VerifyPinInput,
} from '../../auth/verify-pin.ts';
import { findOrderRow, ORDER_NOT_FOUND } from '../../model/orders/order-repository.ts';
import { assertMayWorkOrder } from '../../model/orders/order-access.ts';

type CashierRequest = { orderId: string; user: SessionUser; ip: string; sessionHash?: string | null; pin: string };

/**
 * Before a cash or transfer payment, outside its transaction: the order exists and the user may
 * work it, and the PIN names the cashier the cash close shows (any active user; throttled). Nothing
 * is tried of the PIN before the order is known to be the user's: a waiter cannot guess PINs
 * through another waiter's table.
 */
export async function cashierFor(ctx: AppContext, req: CashierRequest): Promise<PinUser> {
  const input: VerifyPinInput = {
    pin: req.pin,
    actorId: req.user.id,
    sessionHash: req.sessionHash ?? null,
    ip: req.ip,
    purpose: 'cash-close',
  };
  if (ctx.db.kind === 'postgres') return cashierInOneCall(ctx, req, input);
  const order = await findOrderRow(ctx.db.db, req.orderId);
  if (!order) throw notFound(ORDER_NOT_FOUND);
  assertMayWorkOrder(req.user, order);
  return verifyPin(ctx, input);
}

/**
 * PostgreSQL: the order's owner and, only when the user may work it, the PIN's attempt, in one
 * round trip. The attempt is a CASE branch, so it runs only when comanda_may_work_order (the
 * domain's mayWorkOrder in SQL) holds. The rule is still asked of the row afterwards; should the
 * two ever disagree on an order the user may work, the attempt is made on its own.
 */
async function cashierInOneCall(ctx: AppContext, req: CashierRequest, input: VerifyPinInput): Promise<PinUser> {
  const limits = pinBudgets(input);
  const { rows } = await sql<{ found: boolean; waiter_id: string | null; attempt: AttemptRow | null }>`
    WITH o AS (SELECT waiter_id FROM orders WHERE id = ${req.orderId})
    SELECT EXISTS (SELECT 1 FROM o) AS found, (SELECT waiter_id FROM o) AS waiter_id,
      CASE WHEN EXISTS (SELECT 1 FROM o WHERE comanda_may_work_order(${req.user.role}, ${req.user.id}, o.waiter_id))
        THEN (SELECT row_to_json(a) FROM ${pinAttemptCall(ctx, input, limits)} a)
      END AS attempt`.execute(ctx.db.db);
  const row = rows[0];
  if (!row?.found) throw notFound(ORDER_NOT_FOUND);
  assertMayWorkOrder(req.user, { waiter_id: row.waiter_id });
  const judged = row.attempt ? judgedFrom(row.attempt) : await attemptPin(ctx, input, limits);
  return answerAttempt(ctx, input, limits, judged);
}
