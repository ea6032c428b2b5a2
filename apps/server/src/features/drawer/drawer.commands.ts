import { sql } from 'kysely';
import type {
  Corte,
  CorteZBody,
  DenominationCountInput,
  DrawerMovementBody,
  DrawerMovementView,
  DrawerSessionView,
  SessionUser,
} from '@comanda/contract';
import { countTotal, overShort, type DenominationCount, cents } from '@comanda/domain';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import { audit } from '../../http/audit.ts';
import { newId } from '../../http/ids.ts';
import { mutate } from '../../http/transaction.ts';
import { verifyPin } from '../../auth/verify-pin.ts';
import { getGeneralConfig, writeConfig } from '../../model/config-store.ts';
import type { Emit, Trx } from '../../http/transaction.ts';
import { enqueueCajaSlip } from '../../model/printing/enqueue.ts';
import type { CorteDocument, MovementDocument } from '../../model/printing/documents.ts';
import {
  assertOutflowFits,
  DRAWER_CONFIG_KEY,
  DRAWER_ID,
  DRAWER_TEXT,
  emitDrawer,
  findOpenSession,
  findSession,
  lockOpenSession,
  OPEN_SESSION_FIELDS,
  presentCorte,
  presentSession,
  sessionFigures,
} from '../../model/drawer/drawer-store.ts';
import type { AppContext } from '../../http/context.ts';
import type { WriteContext } from '../../http/request-context.ts';

export interface Caller {
  user: SessionUser;
  ip: string;
  sessionHash: string | null;
}

const actorOf = (user: SessionUser) => ({ id: user.id, displayName: user.displayName });
/** Only the denominations actually counted, so the stored count reads cleanly. */
const compact = (count: DenominationCountInput): DenominationCount =>
  Object.fromEntries(Object.entries(count).filter(([, n]) => (n ?? 0) > 0)) as DenominationCount;

function adminPin(ctx: AppContext, caller: Caller, pin: string) {
  return verifyPin(ctx, {
    pin,
    actorId: caller.user.id,
    sessionHash: caller.sessionHash,
    ip: caller.ip,
    purpose: 'drawer',
    roles: ['admin'],
  });
}

export async function setDrawerControl(ctx: WriteContext, caller: Caller, enabled: boolean): Promise<{ enabled: boolean }> {
  return mutate(ctx, async (trx, emit) => {
    const now = ctx.clock.now();
    await writeConfig(trx, DRAWER_CONFIG_KEY, { enabled }, now);
    await audit(trx, now, {
      actor: actorOf(caller.user),
      action: 'drawer.control',
      entity: 'config',
      entityId: DRAWER_CONFIG_KEY,
      data: { enabled },
    });
    emit({ topic: 'drawer', type: 'drawer.settings', id: DRAWER_CONFIG_KEY });
    emit({ topic: 'config', type: 'config.updated', id: DRAWER_CONFIG_KEY });
    return { enabled };
  });
}

/** Opens the drawer with a float counted by denomination; the unique open_drawer_id refuses a second one. */
export async function openDrawer(ctx: WriteContext, caller: Caller, count: DenominationCountInput): Promise<DrawerSessionView> {
  const floatCount = compact(count);
  const float = countTotal(floatCount);
  return mutate(ctx, async (trx, emit) => {
    if (await findOpenSession(trx)) throw conflict(DRAWER_TEXT.alreadyOpen, 'drawer_open');
    const now = ctx.clock.now();
    const id = newId();
    // Two admins opening at once: the unique index lets exactly one insert through.
    const inserted = await trx
      .insertInto('drawer_sessions')
      .values({
        id,
        drawer_id: DRAWER_ID,
        open_drawer_id: DRAWER_ID,
        status: 'abierta',
        float_amount: float,
        float_count: JSON.stringify(floatCount),
        opened_by: caller.user.id,
        opened_by_name: caller.user.displayName,
        opened_at: now,
        ...OPEN_SESSION_FIELDS,
      })
      .onConflict((oc) => oc.column('open_drawer_id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) throw conflict(DRAWER_TEXT.alreadyOpen, 'drawer_open');
    await audit(trx, now, {
      actor: actorOf(caller.user),
      action: 'drawer.opened',
      entity: 'drawer_session',
      entityId: id,
      data: { float, count: floatCount },
    });
    emitDrawer(emit, id, 1);
    const row = await findSession(trx, id);
    return presentSession(trx, row!);
  });
}

/** A withdrawal, deposit or paid-out in the open session, authorised by an admin's PIN; no outflow beyond the drawer's cash. */
export async function addMovement(
  ctx: WriteContext,
  caller: Caller,
  body: DrawerMovementBody,
): Promise<{ movement: DrawerMovementView; printJobs: number }> {
  const authorizer = await adminPin(ctx, caller, body.pin);
  return mutate(ctx, async (trx, emit) => {
    const open = await lockOpenSession(trx);
    if (!open) throw conflict(DRAWER_TEXT.noSessionForMovement, 'drawer_closed');
    await assertOutflowFits(trx, open, body.kind, body.amount);
    const now = ctx.clock.now();
    const movement: DrawerMovementView = {
      id: newId(),
      sessionId: open.id,
      kind: body.kind,
      amount: cents(body.amount),
      reason: body.reason,
      authorizedByName: authorizer.displayName,
      createdByName: caller.user.displayName,
      createdAt: now,
      recipientName: null,
    };
    await trx
      .insertInto('drawer_movements')
      .values({
        id: movement.id,
        session_id: open.id,
        kind: body.kind,
        amount: body.amount,
        reason: body.reason,
        authorized_by: authorizer.id,
        authorized_by_name: authorizer.displayName,
        created_by: caller.user.id,
        created_by_name: caller.user.displayName,
        created_at: now,
      })
      .execute();
    await audit(trx, now, {
      actor: actorOf(caller.user),
      action: `drawer.${body.kind}`,
      entity: 'drawer_session',
      entityId: open.id,
      authorizedBy: authorizer.id,
      data: { movementId: movement.id, amount: body.amount, reason: body.reason },
    });
    // The slip is written with the movement: it prints exactly when the movement exists.
    const printJobs = await printSlip(trx, emit, now, await movementDocument(trx, movement));
    emitDrawer(emit, open.id, Number(open.version));
    return { movement, printJobs };
  });
}

export async function corteX(ctx: AppContext, sessionId: string): Promise<Corte> {
  const row = await findSession(ctx.db.db, sessionId);
  if (!row) throw notFound(DRAWER_TEXT.notFound);
  return presentCorte(ctx.db.db, row, ctx.clock.now());
}

/**
 * Corte Z: the blind count closes the session. The expected cash is computed only here, after
 * the session is claimed (its open_drawer_id cleared, so no cash payment can join it any more),
 * and is first shown in this response. A difference needs a comment; cashier and admin sign with PINs.
 */
export async function corteZ(
  ctx: WriteContext,
  caller: Caller,
  sessionId: string,
  body: CorteZBody,
): Promise<{ corte: Corte; printJobs: number }> {
  const countedCount = compact(body.count);
  const counted = countTotal(countedCount);
  const cashier = await verifyPin(ctx, {
    pin: body.cashierPin,
    actorId: caller.user.id,
    sessionHash: caller.sessionHash,
    ip: caller.ip,
    purpose: 'drawer',
  });
  const admin = await adminPin(ctx, caller, body.adminPin);
  return mutate(ctx, async (trx, emit) => {
    const claimed = await trx
      .updateTable('drawer_sessions')
      .set({ open_drawer_id: null, version: sql<number>`version + 1` })
      .where('id', '=', sessionId)
      .where('status', '=', 'abierta')
      .returning('version')
      .executeTakeFirst();
    if (!claimed) {
      const exists = await findSession(trx, sessionId);
      throw exists ? conflict(DRAWER_TEXT.alreadyClosed, 'drawer_session_closed') : notFound(DRAWER_TEXT.notFound);
    }
    const now = ctx.clock.now();
    const row = (await findSession(trx, sessionId))!;
    const figures = await sessionFigures(trx, row, now);
    const difference = overShort(counted, figures.expected);
    const comment = body.comment.trim();
    if (difference !== 0 && comment === '') throw new AppError(422, 'comment_required', DRAWER_TEXT.commentRequired);
    await trx
      .updateTable('drawer_sessions')
      .set({
        status: 'cerrada',
        closed_at: now,
        counted_amount: counted,
        counted_count: JSON.stringify(countedCount),
        expected_amount: figures.expected,
        difference,
        figures: JSON.stringify(figures),
        comment: comment === '' ? null : comment,
        cashier_id: cashier.id,
        cashier_name: cashier.displayName,
        admin_id: admin.id,
        admin_name: admin.displayName,
        version: sql<number>`version + 1`,
      })
      .where('id', '=', sessionId)
      .execute();
    await audit(trx, now, {
      actor: actorOf(caller.user),
      action: 'drawer.closed',
      entity: 'drawer_session',
      entityId: sessionId,
      authorizedBy: admin.id,
      data: { counted, expected: figures.expected, difference, comment, cashierId: cashier.id, count: countedCount },
    });
    emitDrawer(emit, sessionId, Number(claimed.version) + 1);
    const corte = await presentCorte(trx, (await findSession(trx, sessionId))!, now);
    // The corte Z slip is written with the close, on the caja printer when there is one.
    const printJobs = await printSlip(trx, emit, now, await corteDocument(trx, corte));
    return { corte, printJobs };
  });
}

/**
 * "Imprimir" on a corte X (the figures so far) or a stored corte Z, or on a movement's slip:
 * one job per enabled caja printer. 0 jobs: no caja printer, the screen prints through the browser.
 */
export async function printCorte(ctx: WriteContext, caller: Caller, sessionId: string): Promise<{ jobs: number }> {
  return mutate(ctx, async (trx, emit) => {
    const row = await findSession(trx, sessionId);
    if (!row) throw notFound(DRAWER_TEXT.notFound);
    const now = ctx.clock.now();
    const corte = await presentCorte(trx, row, now);
    const jobs = await printSlip(trx, emit, now, await corteDocument(trx, corte));
    await audit(trx, now, {
      actor: actorOf(caller.user),
      action: corte.closedAt === null ? 'drawer.corte_x_printed' : 'drawer.corte_z_printed',
      entity: 'drawer_session',
      entityId: sessionId,
      data: { jobs },
    });
    return { jobs };
  });
}

export async function printMovement(ctx: WriteContext, caller: Caller, movementId: string): Promise<{ jobs: number }> {
  return mutate(ctx, async (trx, emit) => {
    const row = await trx.selectFrom('drawer_movements').selectAll().where('id', '=', movementId).executeTakeFirst();
    if (!row) throw notFound(DRAWER_TEXT.movementNotFound);
    const now = ctx.clock.now();
    const jobs = await printSlip(
      trx,
      emit,
      now,
      await movementDocument(trx, {
        kind: row.kind,
        amount: cents(Number(row.amount)),
        reason: row.reason,
        authorizedByName: row.authorized_by_name,
        createdByName: row.created_by_name,
        createdAt: Number(row.created_at),
        recipientName: row.recipient_name,
      }),
    );
    await audit(trx, now, {
      actor: actorOf(caller.user),
      action: 'drawer.slip_printed',
      entity: 'drawer_session',
      entityId: row.session_id,
      data: { movementId, jobs },
    });
    return { jobs };
  });
}

export async function printSlip(trx: Trx, emit: Emit, now: number, document: MovementDocument | CorteDocument): Promise<number> {
  const jobs = await enqueueCajaSlip(trx, { document, now });
  // Wakes the print worker after commit.
  if (jobs > 0) emit({ topic: 'printers', type: 'jobs', id: 'caja' });
  return jobs;
}

export async function movementDocument(
  trx: Trx,
  m: Pick<DrawerMovementView, 'kind' | 'amount' | 'reason' | 'authorizedByName' | 'createdByName' | 'createdAt' | 'recipientName'>,
): Promise<MovementDocument> {
  return {
    type: 'movimiento',
    businessName: (await getGeneralConfig(trx)).name,
    kind: m.kind,
    recipient: m.recipientName,
    amount: m.amount,
    reason: m.reason,
    authorizedBy: m.authorizedByName,
    createdBy: m.createdByName,
    at: m.createdAt,
  };
}

async function corteDocument(trx: Trx, corte: Corte): Promise<CorteDocument> {
  return {
    type: 'corte',
    variant: corte.closedAt === null ? 'X' : 'Z',
    businessName: (await getGeneralConfig(trx)).name,
    openedAt: corte.session.openedAt,
    openedBy: corte.session.openedByName,
    at: corte.at,
    figures: corte.figures,
    counted: corte.counted,
    difference: corte.difference,
    comment: corte.comment,
    cashier: corte.cashierName,
    admin: corte.adminName,
    movements: corte.session.movements.map((m) => ({ kind: m.kind, amount: m.amount, reason: m.reason })),
  };
}
