import { PostgresAdapter, sql, type QueryCreator } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Trx } from '../../http/transaction.ts';
import { answerRepeat, claimInsert, claimKey, type KeyClaim, type StoredResponse } from '../../http/idempotency.ts';
import { compiledOnce, firstRow } from '../../db/compiled.ts';
import { lockTableRefusingCardCharges, lockTableToSettle, refuseCardCharge } from '../../model/orders/card-charges.ts';

type ClaimAndLock = KeyClaim & { orderId: string };

/**
 * PostgreSQL: the key's INSERT, and only when it claimed the key, the table's lock with the card
 * flags (its EXISTS on the claim makes the lock wait for it, as it did a statement later).
 */
const claimAndLockStatement = compiledOnce((db, a: ClaimAndLock) =>
  db
    .with('claimed', (qc) => claimInsert(qc, a))
    .with('locked', (qc) => lockTableToSettle(qc as unknown as QueryCreator<Database>, a, sql<boolean>`EXISTS (SELECT 1 FROM claimed)`))
    .selectNoFrom((eb) => [
      eb
        .selectFrom('claimed')
        .select((e) => e.fn.countAll<number>().as('n'))
        .as('claimed'),
      eb.selectFrom('locked').select('card_live').as('card_live'),
      eb.selectFrom('locked').select('card_review').as('card_review'),
    ]),
);

/**
 * A payment's first steps, in the order they always ran: claim the Idempotency-Key, then take the
 * row lock of the order's table, refusing a card charge that may still take the money or awaits
 * review. A repeat of the key answers the first request's stored answer and locks nothing. One
 * statement on PostgreSQL (two round trips before), the two in turn on SQLite.
 */
export async function claimKeyLockingTable(trx: Trx, input: ClaimAndLock): Promise<StoredResponse | null> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return claimKeyThenLockTable(trx, input);
  const row = await firstRow(claimAndLockStatement, trx, input);
  if (Number(row?.claimed ?? 0) === 0) return answerRepeat(trx, input);
  // No table row (an order that does not exist): the order's claim answers it.
  if (row?.card_live != null) refuseCardCharge({ live: Number(row.card_live) !== 0, review: Number(row.card_review) !== 0 });
  return null;
}

/** The claim and the table's lock in turn: SQLite's way, and what the one statement must equal. */
export async function claimKeyThenLockTable(trx: Trx, input: ClaimAndLock): Promise<StoredResponse | null> {
  const stored = await claimKey(trx, input);
  if (stored) return stored;
  await lockTableRefusingCardCharges(trx, input.orderId, input.now);
  return null;
}
