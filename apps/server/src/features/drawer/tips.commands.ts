import type { DrawerMovementView, TipPayoutBody, TipPool, TipsQuery, TipsResponse } from '@comanda/contract';
import { addDays, formatMXN, cents, PIN_MESSAGES, TIP_MESSAGES } from '@comanda/domain';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import { audit } from '../../http/audit.ts';
import { newId } from '../../http/ids.ts';
import { mutate } from '../../http/transaction.ts';
import { verifyPin } from '../../auth/verify-pin.ts';
import { writeConfig } from '../../model/config-store.ts';
import { resolveShift, shiftInterval } from '../../model/shift-windows.ts';
import {
  assertOutflowFits,
  DRAWER_TEXT,
  emitDrawer,
  findOpenSession,
  findSession,
  lockOpenSession,
} from '../../model/drawer/drawer-store.ts';
import { TIP_POOL_CONFIG_KEY, tipRows, tipTotals } from '../../model/drawer/tips-store.ts';
import { movementDocument, printSlip, type Caller } from './drawer.commands.ts';
import type { AppContext } from '../../http/context.ts';
import type { WriteContext } from '../../http/request-context.ts';

/**
 * Tips of a drawer session (by default the open one) or of a range of business dates: each date
 * runs from its shift start to the next date's, as the drawer sessions of a date do.
 */
export async function tipsReport(ctx: AppContext, query: TipsQuery): Promise<TipsResponse> {
  const db = ctx.db.db;
  const now = ctx.clock.now();
  const open = query.sessionId || query.from || query.to ? null : await findOpenSession(db);
  if (query.sessionId || open) {
    const row = open ?? (await findSession(db, query.sessionId!));
    if (!row) throw notFound(DRAWER_TEXT.notFound);
    const to = row.closed_at === null ? now + 1 : Number(row.closed_at);
    const { rows, pool } = await tipRows(db, { from: Number(row.opened_at), to, sessionId: row.id });
    return {
      sessionId: row.id,
      from: Number(row.opened_at),
      to,
      fromDate: null,
      toDate: null,
      payable: row.status === 'abierta',
      pool,
      rows,
      totals: tipTotals(rows),
    };
  }
  const shift = await resolveShift(ctx, query.from ?? query.to);
  const fromDate = query.from ?? shift.date;
  const toDate = query.to ?? fromDate;
  if (toDate < fromDate) throw new AppError(422, 'bad_range', TIP_MESSAGES.badRange);
  const from = shiftInterval(fromDate, shift).start;
  const to = shiftInterval(addDays(toDate, 1), shift).start;
  const { rows, pool } = await tipRows(db, { from, to, sessionId: null });
  return { sessionId: null, from, to, fromDate, toDate, payable: false, pool, rows, totals: tipTotals(rows) };
}

/**
 * A tip payout: cash from the open session's drawer to the person it is owed to, signed with
 * their PIN. At most what the session owes them (its card and transfer tips, or their pooled
 * share, less what they were already paid), and never more than the drawer's cash. The session
 * row is locked first, so two payouts at once are counted one after the other.
 */
export async function payTip(
  ctx: WriteContext,
  caller: Caller,
  body: TipPayoutBody,
): Promise<{ movement: DrawerMovementView; printJobs: number }> {
  const recipient = await verifyPin(ctx, {
    pin: body.pin,
    actorId: caller.user.id,
    sessionHash: caller.sessionHash,
    ip: caller.ip,
    purpose: 'tip-payout',
  });
  // The PIN of someone else is answered like a wrong one.
  if (recipient.id !== body.userId) throw new AppError(403, 'wrong_pin', PIN_MESSAGES.wrong);
  return mutate(ctx, async (trx, emit) => {
    const open = await lockOpenSession(trx);
    if (!open) throw conflict(DRAWER_TEXT.noSessionForMovement, 'drawer_closed');
    const now = ctx.clock.now();
    const { rows } = await tipRows(trx, { from: Number(open.opened_at), to: now + 1, sessionId: open.id });
    const owed = rows.find((r) => r.userId === recipient.id)?.owed ?? 0;
    if (owed === 0) throw conflict(TIP_MESSAGES.nothingOwed, 'tips_not_owed');
    if (body.amount > owed) throw conflict(`${TIP_MESSAGES.overOwed} Se le deben ${formatMXN(cents(owed))}.`, 'tips_over_owed');
    await assertOutflowFits(trx, open, 'propinas', body.amount);
    const movement: DrawerMovementView = {
      id: newId(),
      sessionId: open.id,
      kind: 'propinas',
      amount: cents(body.amount),
      reason: `Entregadas a ${recipient.displayName}`,
      authorizedByName: recipient.displayName,
      createdByName: caller.user.displayName,
      createdAt: now,
      recipientName: recipient.displayName,
    };
    await trx
      .insertInto('drawer_movements')
      .values({
        id: movement.id,
        session_id: open.id,
        kind: 'propinas',
        amount: body.amount,
        reason: movement.reason,
        authorized_by: recipient.id,
        authorized_by_name: recipient.displayName,
        created_by: caller.user.id,
        created_by_name: caller.user.displayName,
        created_at: now,
        recipient_id: recipient.id,
        recipient_name: recipient.displayName,
      })
      .execute();
    await audit(trx, now, {
      actor: { id: caller.user.id, displayName: caller.user.displayName },
      action: 'drawer.propinas',
      entity: 'drawer_session',
      entityId: open.id,
      authorizedBy: recipient.id,
      data: { movementId: movement.id, amount: body.amount, recipientId: recipient.id, owedBefore: owed },
    });
    const printJobs = await printSlip(trx, emit, now, await movementDocument(trx, movement));
    emitDrawer(emit, open.id, Number(open.version));
    return { movement, printJobs };
  });
}

export async function setTipPool(ctx: WriteContext, caller: Caller, pool: TipPool): Promise<TipPool> {
  return mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    const value = { enabled: pool.enabled, percents: pool.percents };
    await writeConfig(trx, TIP_POOL_CONFIG_KEY, value, now);
    await audit(trx, now, {
      actor: { id: caller.user.id, displayName: caller.user.displayName },
      action: 'drawer.tip_pool',
      entity: 'config',
      entityId: TIP_POOL_CONFIG_KEY,
      data: value,
    });
    emit({ topic: 'drawer', type: 'drawer.settings', id: TIP_POOL_CONFIG_KEY });
    return value;
  });
}
