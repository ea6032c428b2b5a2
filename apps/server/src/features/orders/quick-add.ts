import type { SessionUser } from '@comanda/contract';
import {
  BAR_CATEGORIES,
  BAR_TABLE_NUMBER,
  CARD_LIVE_STATES,
  INITIAL_ITEM_STATUS,
  normalizeOptionalText,
  ORDER_LIMITS,
} from '@comanda/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/connect.ts';
import type { OrderItemRow, OrderRow } from '../../db/schema.ts';
import { claimingKey, publishEvents, type EmitEvent } from '../../http/transaction.ts';
import { newId } from '../../http/ids.ts';
import { compiledOnce, firstRow } from '../../db/compiled.ts';
import { SESSION_CHECK } from '../../auth/sessions.ts';
import { boardLineOf } from '../../model/orders/board-lines.ts';
import { emitOrderChanged } from '../../model/orders/order-events.ts';
import { orderChangeOf, type ItemWrite } from '../../model/orders/order-change.ts';
import { tellPrintWorkers } from '../../model/printing/enqueue.ts';
import type { WriteContext } from '../../http/request-context.ts';

/**
 * PostgreSQL: an add's common case in one round trip (decision 0042, issue 20 item 3).
 *
 * The add's transaction in TypeScript (add-item.command.ts) takes seven round trips to the
 * database: BEGIN, the key's claim, the order's lock, the product with the facts, the line, the
 * figures with the comandas and the audit entry, COMMIT. On PostgreSQL each costs both processes a
 * wake-up on the same few cores, and they, not the work, bounded the adds. `comanda_quick_add`
 * (migration 0021) does the same writes in one statement when the add is the plain case, and
 * refuses (SQLSTATE CMQ01, nothing kept) whenever it might not be: the TypeScript add then runs
 * as before and gives every answer and every refusal. So this path never refuses anything itself.
 */

/** How many comandas one add may print here: one per enabled printer of its station. More go the long way. */
const JOB_IDS = 4;

/** What this path reads of an add's input (add-item.command.ts's AddItemInput; declared here so neither file imports the other's). */
interface QuickAddInput {
  orderId: string;
  productId: string;
  quantity: number;
  notes?: string | null | undefined;
  optionIds?: string[] | undefined;
}

/** SQLSTATE of the function's "not the plain case": the add runs in TypeScript. */
const NOT_PLAIN = 'CMQ01';
const HANDED_OVER = new Error('comanda_quick_add: not the plain case');

interface QuickArgs extends Record<string, unknown> {
  key: string | null;
  scope: string | null;
  hash: string | null;
  orderId: string;
  productId: string;
  quantity: number;
  notes: string | null;
  userId: string;
  userName: string;
  anyOrder: boolean;
  /** A remembered session's hash for the statement to check, or null (read for this request already). */
  session: string | null;
  role: string;
  now: number;
  itemId: string;
  auditId: string;
  /** The comandas' ids, comma-joined (a slot holds one value; ids never hold a comma). */
  jobIds: string;
}

interface QuickResult {
  order: OrderRow;
  item: OrderItemRow;
  jobs: number;
}

const quickAddStatement = compiledOnce((db, a: QuickArgs) =>
  db.selectNoFrom(
    sql<QuickResult>`comanda_quick_add(${a.key}, ${a.scope}, ${a.hash}, ${a.orderId}, ${a.productId}, ${a.quantity}::integer, ${a.notes},
      ${a.userId}, ${a.userName}, ${a.anyOrder}::boolean,
      ${a.session}, ${a.role}, ${SESSION_CHECK.idleMs}::bigint, ${SESSION_CHECK.touchEveryMs}::bigint, ${a.now}::bigint, ${a.itemId}, ${a.auditId}, string_to_array(${a.jobIds}, ','),
      ${[...BAR_CATEGORIES]}::text[], ${BAR_TABLE_NUMBER}::integer, ${ORDER_LIMITS.maxLines}::integer, ${ORDER_LIMITS.maxOrderAmount}::bigint,
      ${INITIAL_ITEM_STATUS}, ${[...CARD_LIVE_STATES]}::text[])`.as('result'),
  ),
);

/** Whether this add may try the one statement at all: PostgreSQL, a waiter or an admin, no options chosen. */
export function mayQuickAdd(db: Db, user: SessionUser, input: QuickAddInput): boolean {
  return db.kind === 'postgres' && (user.role === 'admin' || user.role === 'waiter') && (input.optionIds ?? []).length === 0;
}

/**
 * The add in one statement, or undefined when it is not the plain case (nothing was written, and
 * the key, if any, is unclaimed): the caller then runs the TypeScript add.
 */
export async function quickAddItem(
  ctx: WriteContext,
  user: SessionUser,
  input: QuickAddInput,
  /** The hash of a session taken as remembered, for the statement to check; null when it was read for this request. */
  session: string | null = null,
): Promise<ItemWrite | undefined> {
  let result: QuickResult | undefined;
  try {
    // Handed over, the statement kept nothing: the key goes back to open, as after a rollback.
    result = await claimingKey(ctx, async (claim) => {
      try {
        return (
          await firstRow(quickAddStatement, ctx.db.db, {
            key: claim?.key ?? null,
            scope: claim?.scope ?? null,
            hash: claim?.hash ?? null,
            orderId: input.orderId,
            productId: input.productId,
            quantity: input.quantity,
            notes: normalizeOptionalText(input.notes),
            userId: user.id,
            userName: user.displayName,
            anyOrder: user.role === 'admin',
            session,
            role: user.role,
            now: ctx.clock.now(),
            itemId: newId(),
            auditId: newId(),
            jobIds: Array.from({ length: JOB_IDS }, newId).join(','),
          })
        )?.result;
      } catch (error) {
        throw (error as { code?: unknown } | null)?.code === NOT_PLAIN ? HANDED_OVER : error;
      }
    });
  } catch (error) {
    if (error !== HANDED_OVER) throw error;
    if (ctx.db.quickAdds) ctx.db.quickAdds.handedOver++;
    return undefined;
  }
  if (!result) throw new Error('comanda_quick_add gave no result');
  if (ctx.db.quickAdds) ctx.db.quickAdds.taken++;
  const { order, item } = result;
  if (result.jobs > 0) tellPrintWorkers();
  // The live events as placeLine emits them: the new line rides on them, the boards patch it in.
  const events: EmitEvent[] = [];
  emitOrderChanged((e) => events.push(e), input.orderId, order.version, {
    owner: order.waiter_id,
    board: [item.station],
    lines: { lines: [boardLineOf(order, item)], removed: [] },
  });
  publishEvents(ctx, events);
  return { orderId: input.orderId, itemIds: [item.id], change: orderChangeOf(order, [item]) };
}
