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
import { sessionOkCall, withSessionChecked, type SessionToCheck } from '../../auth/sessions.ts';

type CashierRequest = {
  orderId: string;
  user: SessionUser;
  ip: string;
  sessionHash?: string | null;
  pin: string;
  /** The caller's session when the route took it as remembered (PostgreSQL): checked in the PIN's statement. */
  session?: SessionToCheck | undefined;
};

/** The PIN's owner, and the caller as their session now stands (read again when it was remembered and did not hold). */
export interface Cashier {
  cashier: PinUser;
  user: SessionUser;
}

/**
 * Before a cash or transfer payment, outside its transaction: the order exists and the user may
 * work it, and the PIN names the cashier the cash close shows (any active user; throttled). Nothing
 * is tried of the PIN before the order is known to be the user's: a waiter cannot guess PINs
 * through another waiter's table.
 */
export function cashierFor(ctx: AppContext, req: CashierRequest): Promise<Cashier> {
  return withSessionChecked(req.user, req.session, (user, session) => cashierOnce(ctx, { ...req, user, session }));
}

/** One try: null when a remembered session did not hold (nothing else was done). */
async function cashierOnce(ctx: AppContext, req: CashierRequest): Promise<Cashier | null> {
  if (ctx.db.kind === 'postgres') return cashierInOneCall(ctx, req);
  if (req.session) return null; // only PostgreSQL's statement checks one
  return { cashier: await cashierInTurn(ctx, req), user: req.user };
}

function pinInput(req: CashierRequest): VerifyPinInput {
  return {
    pin: req.pin,
    actorId: req.user.id,
    sessionHash: req.sessionHash ?? null,
    ip: req.ip,
    purpose: 'cash-close',
  };
}

/** SQLite: the order's check and then the PIN, a statement each. */
async function cashierInTurn(ctx: AppContext, req: CashierRequest): Promise<PinUser> {
  const input = pinInput(req);
  const order = await findOrderRow(ctx.db.db, req.orderId);
  if (!order) throw notFound(ORDER_NOT_FOUND);
  assertMayWorkOrder(req.user, order);
  return verifyPin(ctx, input);
}

/**
 * PostgreSQL: a remembered session's check (comanda_session_ok), the order's owner and, only when
 * the session holds and the user may work the order, the PIN's attempt, in one round trip. The
 * attempt is a CASE branch, so it runs only when comanda_may_work_order (the domain's mayWorkOrder
 * in SQL) holds. The rule is still asked of the row afterwards; should the two ever disagree on an
 * order the user may work, the attempt is made on its own. Null: the session did not hold,
 * nothing else was done, and the caller reads it again.
 */
async function cashierInOneCall(ctx: AppContext, req: CashierRequest): Promise<Cashier | null> {
  const input = pinInput(req);
  const limits = pinBudgets(input);
  const { user, session } = req;
  const sessionOk = sessionOkCall(session, user, ctx.clock.now());
  const { rows } = await sql<{ session_ok: boolean; found: boolean; waiter_id: string | null; attempt: AttemptRow | null }>`
    WITH s AS (SELECT ${sessionOk} AS ok), o AS (SELECT waiter_id FROM orders WHERE id = ${req.orderId})
    SELECT (SELECT ok FROM s) AS session_ok, EXISTS (SELECT 1 FROM o) AS found, (SELECT waiter_id FROM o) AS waiter_id,
      CASE WHEN (SELECT ok FROM s) AND EXISTS (SELECT 1 FROM o WHERE comanda_may_work_order(${user.role}, ${user.id}, o.waiter_id))
        THEN (SELECT row_to_json(a) FROM ${pinAttemptCall(ctx, input, limits)} a)
      END AS attempt`.execute(ctx.db.db);
  const row = rows[0];
  if (!row?.session_ok) return null;
  if (!row.found) throw notFound(ORDER_NOT_FOUND);
  assertMayWorkOrder(req.user, { waiter_id: row.waiter_id });
  const judged = row.attempt ? judgedFrom(row.attempt) : await attemptPin(ctx, input, limits);
  return { cashier: await answerAttempt(ctx, input, limits, judged), user };
}
