import { PostgresAdapter, sql, type QueryCreator } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Trx } from '../../http/transaction.ts';
import { answerRepeat, claimInsert, claimKey, type KeyClaim, type StoredResponse } from '../../http/idempotency.ts';
import { compiledOnce, firstRow } from '../../db/compiled.ts';
import { lockTableRefusingCardCharges, lockTableToSettle, refuseCardCharge } from '../../model/orders/card-charges.ts';
import { claimOpenOrder, claimOrder, notOpen, type ClaimedOrder } from '../../model/checkout/close-order.ts';

type ClaimAndLock = KeyClaim & { orderId: string };

/** A payment's first steps done: the first request's stored answer (a repeat), or the order claimed and locked. */
export type Claimed = { stored: StoredResponse } | { order: ClaimedOrder };

/**
 * PostgreSQL: the key's INSERT; only when it claimed the key, the table's lock with the card flags
 * (its EXISTS on the claim makes the lock wait for it, as it did a statement later); and only when
 * the table was locked with no card charge to refuse, the order's claim (its EXISTS on the lock
 * takes the table's row lock before the order's, the order every close keeps). The claimed order
 * comes back as JSON: its columns are text and integers, read as the claim's own RETURNING gives
 * them (`close-first-last.test.ts` compares the two).
 */
const claimAndLockStatement = compiledOnce((db, a: ClaimAndLock) =>
  db
    .with('claimed', (qc) => claimInsert(qc, a))
    .with('locked', (qc) => lockTableToSettle(qc as unknown as QueryCreator<Database>, a, sql<boolean>`EXISTS (SELECT 1 FROM claimed)`))
    .with('ordered', (qc) =>
      claimOrder(
        qc as unknown as QueryCreator<Database>,
        a,
        sql<boolean>`EXISTS (SELECT 1 FROM locked WHERE card_live = 0 AND card_review = 0)`,
      ),
    )
    .selectNoFrom((eb) => [
      eb
        .selectFrom('claimed')
        .select((e) => e.fn.countAll<number>().as('n'))
        .as('claimed'),
      eb.selectFrom('locked').select('card_live').as('card_live'),
      eb.selectFrom('locked').select('card_review').as('card_review'),
      sql<ClaimedOrder | null>`(SELECT row_to_json(o) FROM ordered o)`.as('order'),
    ]),
);

/**
 * A cash close's first steps, in the order they always ran: claim the Idempotency-Key, then take
 * the row lock of the order's table, refusing a card charge that may still take the money or awaits
 * review, then claim the order (claimOpenOrder: its version bumped under its row lock, refused when
 * it is not activo). A repeat of the key answers the first request's stored answer and locks
 * nothing. One statement on PostgreSQL (three round trips before), the three in turn on SQLite.
 */
export async function claimKeyLockingTable(trx: Trx, input: ClaimAndLock): Promise<Claimed> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return claimKeyThenLockTable(trx, input);
  const row = await firstRow(claimAndLockStatement, trx, input);
  if (Number(row?.claimed ?? 0) === 0) return { stored: await answerRepeat(trx, input) };
  // No table row (an order that does not exist): the order's refusal answers it.
  if (row?.card_live != null) refuseCardCharge({ live: Number(row.card_live) !== 0, review: Number(row.card_review) !== 0 });
  if (!row?.order) throw await notOpen(trx, input.orderId);
  return { order: row.order };
}

/** The claim, the table's lock and the order's claim in turn: SQLite's way, and what the one statement must equal. */
export async function claimKeyThenLockTable(trx: Trx, input: ClaimAndLock): Promise<Claimed> {
  const stored = await claimKey(trx, input);
  if (stored) return { stored };
  await lockTableRefusingCardCharges(trx, input.orderId, input.now);
  return { order: await claimOpenOrder(trx, input.orderId, input.now, 'held') };
}
