import type { SessionUser } from '@comanda/contract';
import { BAR_TABLE_NUMBER, mayTryPlainDelete, PLAIN_CASE } from '@comanda/domain';
import { sql } from 'kysely';
import { claimingKey } from '../../http/transaction.ts';
import { newId } from '../../http/ids.ts';
import { answerAttempt, pinBudgets, pinHashOf, type Judged, type VerifyPinInput } from '../../auth/verify-pin.ts';
import type { ItemWrite } from '../../model/orders/order-change.ts';
import { answerOneLine, type OneLineResult } from './one-line-answer.ts';
import type { WriteContext } from '../../http/request-context.ts';

/**
 * PostgreSQL: a delete with the admin's PIN in one round trip (decision 0049).
 *
 * The delete in TypeScript (delete-item.command.ts) reads the order, tries the PIN, then runs its
 * transaction: BEGIN, the key's claim, the order's lock, the line, the figures with the slips and
 * the audit entry, COMMIT. On a slow disk at night each round trip may stall, and the delete's tail
 * was the sum. `comanda_quick_delete` (db/functions) does the same in one statement when the delete
 * is the plain case and refuses (SQLSTATE CMQ01, nothing kept) whenever it might not be: the
 * TypeScript delete then runs as before and gives every answer and every refusal.
 */

/** How many cancelation slips one delete may print here: one per enabled printer of its station. More go the long way. */
const JOB_IDS = PLAIN_CASE.maxJobs;

/** SQLSTATE of the function's "not the plain case": the delete runs in TypeScript. */
const NOT_PLAIN = 'CMQ01';
const HANDED_OVER = new Error('comanda_quick_delete: not the plain case');

interface DeleteArgs {
  key: string | null;
  scope: string | null;
  hash: string | null;
  orderId: string;
  itemId: string;
  userId: string;
  userName: string;
  role: string;
  pinKeys: string[];
  pinWindows: number[];
  pinLimits: number[];
  pinHash: string | null;
  /** Null: a PIN of any role (none for a delete: only an admin's). */
  pinRoles: string[] | null;
  pinBatch: string;
  now: number;
  auditId: string;
  /** The slips' ids, one per printer at most. */
  jobIds: string[];
}

/** The function's answer: the delete done, or a PIN it did not accept (nothing else kept). */
type DeleteResult = OneLineResult | { pin: 'blocked' | 'own' | 'wrong'; counts: number[] | null };

/** The statement, built per call (a delete is rare; its lists are one parameter each). */
async function sendDelete(ctx: WriteContext, a: DeleteArgs): Promise<DeleteResult | undefined> {
  const { rows } = await sql<{ result: DeleteResult }>`
    select comanda_quick_delete(${a.key}, ${a.scope}, ${a.hash}, ${a.orderId}, ${a.itemId}, ${a.userId}, ${a.userName}, ${a.role},
      ${a.pinKeys}::text[], ${a.pinWindows}::bigint[], ${a.pinLimits}::integer[], ${a.pinHash}, ${a.pinRoles}::text[], ${a.pinBatch},
      ${a.now}::bigint, ${a.auditId}, ${a.jobIds}::text[], ${BAR_TABLE_NUMBER}::integer, ${[...PLAIN_CASE.cardStates]}::text[]) as result`.execute(
    ctx.db.db,
  );
  return rows[0]?.result;
}

/** Whether this delete may try the one statement at all: PostgreSQL, and the plain case's role (mayTryPlainDelete). */
export function mayQuickDelete(ctx: WriteContext, user: SessionUser): boolean {
  return ctx.db.kind === 'postgres' && mayTryPlainDelete(user.role);
}

/**
 * The delete in one statement, or undefined when it is not the plain case (nothing was written or
 * counted, and the key, if any, is unclaimed): the caller then runs the TypeScript delete. A PIN
 * the statement did not accept is answered here as verifyPin answers it (audited, then refused).
 */
export async function quickDeleteItem(
  ctx: WriteContext,
  user: SessionUser,
  input: { orderId: string; itemId: string },
  pin: VerifyPinInput,
): Promise<ItemWrite | undefined> {
  const limits = pinBudgets(pin);
  let result: DeleteResult | undefined;
  try {
    result = await claimingKey(ctx, async (claim) => {
      let answer: DeleteResult | undefined;
      try {
        answer = await sendDelete(ctx, {
          key: claim?.key ?? null,
          scope: claim?.scope ?? null,
          hash: claim?.hash ?? null,
          orderId: input.orderId,
          itemId: input.itemId,
          userId: user.id,
          userName: user.displayName,
          role: user.role,
          pinKeys: limits.map(([key]) => key),
          pinWindows: limits.map(([, rule]) => rule.windowMs),
          pinLimits: limits.map(([, rule]) => rule.limit),
          pinHash: pinHashOf(ctx, pin.pin),
          pinRoles: pin.roles ? [...pin.roles] : null,
          pinBatch: newId(),
          now: ctx.clock.now(),
          auditId: newId(),
          jobIds: Array.from({ length: JOB_IDS }, newId),
        });
      } catch (error) {
        throw (error as { code?: unknown } | null)?.code === NOT_PLAIN ? HANDED_OVER : error;
      }
      // A PIN not accepted kept nothing but its count: the key stays open, as after verifyPin's refusal.
      if (answer && 'pin' in answer) throw new PinNotAccepted(answer);
      return answer;
    });
  } catch (error) {
    if (error instanceof PinNotAccepted) {
      const { pin: outcome, counts } = error.answer;
      const judged: Judged = outcome === 'wrong' ? { outcome, counts: (counts ?? []).map(Number) } : { outcome };
      // Refused and audited as every PIN is (verify-pin.ts): answerAttempt throws for these outcomes.
      await answerAttempt(ctx, pin, limits, judged);
      throw new Error('comanda_quick_delete: a PIN not accepted was answered as accepted');
    }
    if (error !== HANDED_OVER) throw error;
    if (ctx.db.quickDeletes) ctx.db.quickDeletes.handedOver++;
    return undefined;
  }
  if (!result || 'pin' in result) throw new Error('comanda_quick_delete gave no result');
  if (ctx.db.quickDeletes) ctx.db.quickDeletes.taken++;
  // The live events as the TypeScript delete emits them: the boards drop the line from the event.
  return answerOneLine(ctx, input.orderId, result, { lines: [], removed: [result.item.id] });
}

class PinNotAccepted extends Error {
  constructor(readonly answer: Extract<DeleteResult, { pin: unknown }>) {
    super(`PIN ${answer.pin}`);
  }
}
