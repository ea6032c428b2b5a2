import { PostgresAdapter, sql, type RawBuilder } from 'kysely';
import type { Corte, DrawerMovementView, DrawerSessionView } from '@comanda/contract';
import {
  drawerFigures,
  expectedCash,
  outflowRefusal,
  type DenominationCount,
  type DrawerFigures,
  type DrawerMovementKind,
  cents,
  ZERO,
} from '@comanda/domain';
import type { Emit, Trx } from '../../http/transaction.ts';
import { conflict } from '../../http/errors.ts';
import { readConfig } from '../config-store.ts';
import { withRiders, type Rider } from '../../db/compiled.ts';
import { paidTaxes } from '../reports/paid-taxes.ts';

/** The business has one drawer for now; sessions name it so a second drawer is a data change. */
export const DRAWER_ID = 'principal';
export const DRAWER_CONFIG_KEY = 'drawer';

/** The columns of a drawer session still open: nothing counted, closed or signed yet. */
export const OPEN_SESSION_FIELDS = {
  closed_at: null,
  counted_amount: null,
  counted_count: null,
  expected_amount: null,
  difference: null,
  figures: null,
  comment: null,
  cashier_id: null,
  cashier_name: null,
  admin_id: null,
  admin_name: null,
} as const;

export const DRAWER_TEXT = {
  noSession: 'No hay un turno de caja abierto. Abre la caja antes de cobrar en efectivo.',
  noSessionForMovement: 'No hay un turno de caja abierto.',
  alreadyOpen: 'Ya hay un turno de caja abierto. Haz el corte Z antes de abrir otro.',
  alreadyClosed: 'Este turno de caja ya fue cerrado y no se puede modificar.',
  notFound: 'Turno de caja no encontrado',
  movementNotFound: 'Movimiento de caja no encontrado',
  commentRequired: 'El conteo no coincide con lo esperado: explica la diferencia en el comentario.',
  adminPinOnly: 'Se requiere el PIN de un administrador',
} as const;

export interface DrawerSettings {
  enabled: boolean;
}

export async function drawerEnabled(db: Trx): Promise<boolean> {
  return (await readConfig<DrawerSettings>(db, DRAWER_CONFIG_KEY))?.enabled === true;
}

export function emitDrawer(emit: Emit, id: string, version: number): void {
  emit({ topic: 'drawer', type: 'drawer.updated', id, version });
}

/**
 * The open drawer session, locked (its version bumped) so a corte Z and whatever joins the
 * session (a payment, a movement) serialise; undefined when the drawer is closed.
 */
export async function lockOpenSession(
  trx: Trx,
): Promise<{ id: string; version: number; opened_at: number; float_amount: number } | undefined> {
  return trx
    .updateTable('drawer_sessions')
    .set({ version: sql<number>`version + 1` })
    .where('open_drawer_id', '=', DRAWER_ID)
    .returning(['id', 'version', 'opened_at', 'float_amount'])
    .executeTakeFirst();
}

/**
 * Refuses (409) a retiro, gasto or tip payout larger than the cash the session is expected to
 * hold. Call it after lockOpenSession, in the same transaction: racing outflows are counted one
 * after the other, so together they never take more than the drawer holds.
 */
export async function assertOutflowFits(
  trx: Trx,
  session: { id: string; float_amount: number },
  kind: DrawerMovementKind,
  amount: number,
): Promise<void> {
  if (kind === 'deposito') return;
  const refusal = outflowRefusal(kind, amount, expectedCash(await cashFigures(trx, session)));
  if (refusal) throw conflict(refusal, 'drawer_short');
}

/**
 * The one hook of the cash close (close-with-cash.command.ts), inside its transaction: the
 * order's payment joins the open session. The conditional update locks the session row, so a
 * corte Z either waits for this payment or has already cleared `open_drawer_id` and this finds
 * no open session: a payment lands in exactly one session, never in a closed one.
 * Without an open session the payment is refused only when the business turned drawer control on.
 * `riders` (the close's stored answer) go along: on PostgreSQL, with a named payment, the session's
 * lock, the payment's link and the riders are one statement; otherwise the riders run after.
 */
export async function attachToDrawer(
  trx: Trx,
  input: {
    orderId: string;
    now: number;
    emit: Emit;
    /** The cash payment to attach (an order may hold several). */
    paymentId?: string;
    riders?: readonly Rider[];
    /**
     * PostgreSQL, with `paymentId`: an expression the one statement evaluates too, whether a session
     * is open or not (a close's report rollups, `rollupsCall`).
     */
    along?: RawBuilder<unknown>;
  },
): Promise<void> {
  const riders = input.riders ?? [];
  if (input.paymentId !== undefined && trx.getExecutor().adapter instanceof PostgresAdapter) {
    const open = await attachInOneStatement(trx, { paymentId: input.paymentId, now: input.now }, riders, input.along);
    if (open) emitDrawer(input.emit, open.id, Number(open.version));
    else if (await drawerEnabled(trx)) throw conflict(DRAWER_TEXT.noSession, 'drawer_closed');
    return;
  }
  if (input.along) throw new Error('attachToDrawer: `along` needs PostgreSQL and a named payment');
  const open = await lockOpenSession(trx);
  if (open) {
    const paymentId =
      input.paymentId ??
      (
        await trx
          .selectFrom('payments')
          .select('id')
          .where('order_id', '=', input.orderId)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow()
      ).id;
    await trx.insertInto('drawer_payments').values({ payment_id: paymentId, session_id: open.id, created_at: input.now }).execute();
  } else if (await drawerEnabled(trx)) throw conflict(DRAWER_TEXT.noSession, 'drawer_closed');
  for (const rider of riders) await rider.execute();
  if (open) emitDrawer(input.emit, open.id, Number(open.version));
}

/**
 * PostgreSQL: lockOpenSession's UPDATE, the payment's row in `drawer_payments` when a session is
 * open (an INSERT reading the locked session's id), the riders and `along`, in one round trip.
 */
async function attachInOneStatement(
  trx: Trx,
  a: { paymentId: string; now: number },
  riders: readonly Rider[],
  along: RawBuilder<unknown> | undefined,
): Promise<{ id: string; version: number } | undefined> {
  const row = await withRiders(trx, riders)
    .with('open_session', (db) =>
      db
        .updateTable('drawer_sessions')
        .set({ version: sql<number>`version + 1` })
        .where('open_drawer_id', '=', DRAWER_ID)
        .returning(['id', 'version', 'opened_at']),
    )
    .with('attached', (db) =>
      db
        .insertInto('drawer_payments')
        .columns(['payment_id', 'session_id', 'created_at'])
        .expression((eb) =>
          eb
            .selectFrom('open_session')
            .select([
              sql<string>`${a.paymentId}::text`.as('payment_id'),
              'open_session.id',
              sql<number>`${a.now}::bigint`.as('created_at'),
            ]),
        ),
    )
    // Scalar reads of the session, so the one row (and `along`) comes whether a session is open or not.
    .selectNoFrom((eb) => [
      eb.selectFrom('open_session').select('id').as('id'),
      eb.selectFrom('open_session').select('version').as('version'),
      ...(along ? [along.as('along')] : []),
    ])
    .executeTakeFirst();
  return row?.id != null && row.version != null ? { id: row.id, version: Number(row.version) } : undefined;
}

export type SessionRow = Awaited<ReturnType<typeof findSession>>;

export async function findSession(db: Trx, id: string) {
  return db.selectFrom('drawer_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findOpenSession(db: Trx) {
  return db.selectFrom('drawer_sessions').selectAll().where('open_drawer_id', '=', DRAWER_ID).executeTakeFirst();
}

export function parseCount(json: string | null): DenominationCount {
  return json ? (JSON.parse(json) as DenominationCount) : {};
}

async function movements(db: Trx, sessionId: string): Promise<DrawerMovementView[]> {
  const rows = await db
    .selectFrom('drawer_movements')
    .selectAll()
    .where('session_id', '=', sessionId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((m) => ({
    id: m.id,
    sessionId: m.session_id,
    kind: m.kind,
    amount: cents(Number(m.amount)),
    reason: m.reason,
    authorizedByName: m.authorized_by_name,
    createdByName: m.created_by_name,
    createdAt: Number(m.created_at),
    recipientName: m.recipient_name,
  }));
}

/** The session as the screens show it: float and movements, never its expected cash. */
export async function presentSession(db: Trx, row: NonNullable<SessionRow>): Promise<DrawerSessionView> {
  return {
    id: row.id,
    status: row.status,
    openedAt: Number(row.opened_at),
    openedByName: row.opened_by_name,
    float: cents(Number(row.float_amount)),
    floatCount: parseCount(row.float_count) as Record<string, number>,
    movements: await movements(db, row.id),
  };
}

/** The session's cash figures (its float, its own payments and its movements) and its number of cash payments. */
async function cashFigures(db: Trx, row: { id: string; float_amount: number }): Promise<DrawerFigures & { cashCount: number }> {
  const payments = await db
    .selectFrom('drawer_payments')
    .innerJoin('payments', 'payments.id', 'drawer_payments.payment_id')
    .select(['payments.method', 'payments.amount', 'payments.received_amount', 'payments.change_amount'])
    .where('drawer_payments.session_id', '=', row.id)
    .execute();
  const moves = await db.selectFrom('drawer_movements').select(['kind', 'amount']).where('session_id', '=', row.id).execute();
  const figures = drawerFigures(
    Number(row.float_amount),
    payments.map((p) => ({
      method: p.method,
      amount: Number(p.amount),
      receivedAmount: p.received_amount === null ? null : Number(p.received_amount),
      changeAmount: p.change_amount === null ? null : Number(p.change_amount),
    })),
    moves.map((m) => ({ kind: m.kind, amount: Number(m.amount) })),
  );
  return { ...figures, cashCount: payments.filter((p) => p.method === 'efectivo').length };
}

/** The session's figures so far (or up to `until`): cash from its own payments, card and transfer for information. */
export async function sessionFigures(db: Trx, row: NonNullable<SessionRow>, until: number): Promise<Corte['figures']> {
  const f = await cashFigures(db, row);
  const others = await db
    .selectFrom('payments')
    .select(['method', sql<string>`sum(amount)`.as('total'), sql<string>`count(*)`.as('n')])
    .where('method', '<>', 'efectivo')
    .where('created_at', '>=', Number(row.opened_at))
    .where('created_at', '<', until)
    .groupBy('method')
    .execute();
  const other = (m: string) => cents(Number(others.find((o) => o.method === m)?.total ?? 0));
  return {
    float: f.float,
    cashSales: f.cashSales,
    cashReceived: f.cashReceived,
    change: f.change,
    deposits: f.deposits,
    withdrawals: f.withdrawals,
    paidOuts: f.paidOuts,
    tipPayouts: f.tipPayouts,
    expected: expectedCash(f),
    cashCount: f.cashCount,
    card: other('tarjeta'),
    transfer: other('transferencia'),
    // The checks paid during the session, their frozen taxes added up (the corte's ventas netas and IVA).
    taxes: await paidTaxes(db, { start: Number(row.opened_at), end: until }),
  };
}

function storedFigures(json: string): Corte['figures'] {
  const stored = JSON.parse(json) as Omit<Corte['figures'], 'tipPayouts'> & { tipPayouts?: Corte['figures']['tipPayouts'] };
  return { ...stored, tipPayouts: stored.tipPayouts ?? ZERO };
}

/** A corte: X (live figures of an open session, `at` = now) or Z (the stored, immutable close). */
export async function presentCorte(db: Trx, row: NonNullable<SessionRow>, now: number): Promise<Corte> {
  const closed = row.status === 'cerrada';
  // A corte Z stored before tip payouts existed has none.
  const figures = closed && row.figures ? storedFigures(row.figures) : await sessionFigures(db, row, now);
  return {
    session: await presentSession(db, row),
    figures,
    at: closed ? Number(row.closed_at) : now,
    closedAt: row.closed_at === null ? null : Number(row.closed_at),
    counted: row.counted_amount === null ? null : Number(row.counted_amount),
    countedCount: row.counted_count === null ? null : (parseCount(row.counted_count) as Record<string, number>),
    difference: row.difference === null ? null : Number(row.difference),
    comment: row.comment,
    cashierName: row.cashier_name,
    adminName: row.admin_name,
  };
}
