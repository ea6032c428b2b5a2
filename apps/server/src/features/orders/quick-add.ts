import type { SessionUser } from '@comanda/contract';
import {
  BAR_CATEGORIES,
  BAR_TABLE_NUMBER,
  INITIAL_ITEM_STATUS,
  mayTryPlainAdd,
  normalizeOptionalText,
  ORDER_LIMITS,
  PLAIN_CASE,
} from '@comanda/domain';
import { sql } from 'kysely';
import { undoneByDatabase, type Db } from '../../db/connect.ts';
import { claimingKey } from '../../http/transaction.ts';
import { newId } from '../../http/ids.ts';
import { compiledOnce, firstRow } from '../../db/compiled.ts';
import { SESSION_CHECK } from '../../auth/sessions.ts';
import { boardLineOf } from '../../model/orders/board-lines.ts';
import type { ItemWrite } from '../../model/orders/order-change.ts';
import { answerOneLine, type OneLineResult } from './one-line-answer.ts';
import type { WriteContext } from '../../http/request-context.ts';
import type { AppContext } from '../../http/context.ts';
import { Gathering } from '../../db/gathering.ts';

/**
 * PostgreSQL: an add's plain case in one round trip.
 *
 * The add's transaction in TypeScript (add-item.command.ts) takes seven round trips to the
 * database: BEGIN, the key's claim, the order's lock, the product with the facts, the line, the
 * figures with the comandas and the audit entry, COMMIT. On PostgreSQL each costs both processes a
 * wake-up on the same few cores, and they, not the work, bounded the adds. `comanda_quick_add`
 * (db/functions) does the same writes in one statement when the add is the plain case, and
 * refuses (SQLSTATE CMQ01, nothing kept) whenever it might not be: the TypeScript add then runs
 * as before and gives every answer and every refusal. So this path never refuses anything itself.
 */

/** How many comandas one add may print here: one per enabled printer of its station. More go the long way. */
const JOB_IDS = PLAIN_CASE.maxJobs;

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

/** An add as comanda_quick_add takes it, but the time (given when it is sent). */
interface Member extends Record<string, unknown> {
  key: string | null;
  scope: string | null;
  hash: string | null;
  orderId: string;
  productId: string;
  quantity: number;
  notes: string | null;
  userId: string;
  userName: string;
  /** A remembered session's hash for the statement to check, or null (read for this request already). */
  session: string | null;
  role: string;
  itemId: string;
  auditId: string;
  /** The comandas' ids, comma-joined (a slot holds one value; ids never hold a comma). */
  jobIds: string;
}

type QuickResult = OneLineResult;

type QuickArgs = Member & { now: number };

const quickAddStatement = compiledOnce((db, a: QuickArgs) =>
  db.selectNoFrom(
    sql<QuickResult>`comanda_quick_add(${a.key}, ${a.scope}, ${a.hash}, ${a.orderId}, ${a.productId}, ${a.quantity}::integer, ${a.notes},
      ${a.userId}, ${a.userName},
      ${a.session}, ${a.role}, ${SESSION_CHECK.idleMs}::bigint, ${SESSION_CHECK.touchEveryMs}::bigint, ${a.now}::bigint, ${a.itemId}, ${a.auditId}, string_to_array(${a.jobIds}, ','),
      ${[...BAR_CATEGORIES]}::text[], ${BAR_TABLE_NUMBER}::integer, ${ORDER_LIMITS.maxLines}::integer, ${ORDER_LIMITS.maxOrderAmount}::bigint,
      ${INITIAL_ITEM_STATUS}, ${[...PLAIN_CASE.cardStates]}::text[])`.as('result'),
  ),
);

/** A member's answer from comanda_quick_add_many: its result, a hand-over, or the SQLSTATE it failed with. */
type ManyAnswer = QuickResult | { handedOver: true } | { error: string };
/** What the add's request gets back from its group. */
type Outcome = { result: QuickResult } | { handedOver: true } | { thrown: unknown };

const quickAddManyStatement = compiledOnce((db, a: { members: string; now: number }) =>
  db.selectNoFrom(
    sql<ManyAnswer[]>`comanda_quick_add_many(${a.members}::json, ${a.now}::bigint,
      ${SESSION_CHECK.idleMs}::bigint, ${SESSION_CHECK.touchEveryMs}::bigint,
      ${[...BAR_CATEGORIES]}::text[], ${BAR_TABLE_NUMBER}::integer, ${ORDER_LIMITS.maxLines}::integer, ${ORDER_LIMITS.maxOrderAmount}::bigint,
      ${INITIAL_ITEM_STATUS}, ${[...PLAIN_CASE.cardStates]}::text[])`.as('result'),
  ),
);

/**
 * Adds in one statement at a time per lane: two lanes keep both of a small server's
 * cores busy; the adds that arrive meanwhile go together, eight at most (the experiment in
 * docs/performance.md found four to eight the cheapest per add, and each member is a subtransaction:
 * PostgreSQL keeps 64 of them per transaction in shared memory before it slows every snapshot).
 */
const LANES = 2;
const MOST = 8;
const groupsByDb = new WeakMap<Db, Gathering<Member, Outcome>>();

/** The database's gathering of adds, made on first use. */
function quickAddGroups(ctx: Pick<AppContext, 'db' | 'clock'>): Gathering<Member, Outcome> {
  let groups = groupsByDb.get(ctx.db);
  if (!groups) {
    // The app's database and clock, not the context of the request that came first.
    const { db, clock } = ctx;
    groups = new Gathering((members) => sendMembers({ db, clock }, members), LANES, MOST);
    groupsByDb.set(ctx.db, groups);
  }
  return groups;
}

/** One add alone, as comanda_quick_add answers it. */
async function sendAlone(ctx: Pick<AppContext, 'db' | 'clock'>, member: Member): Promise<Outcome> {
  try {
    const result = (await firstRow(quickAddStatement, ctx.db.db, { ...member, now: ctx.clock.now() }))?.result;
    return result ? { result } : { thrown: new Error('comanda_quick_add gave no result') };
  } catch (error) {
    return (error as { code?: unknown } | null)?.code === NOT_PLAIN ? { handedOver: true } : { thrown: error };
  }
}

/**
 * A group in one statement, its members locked by order id; a member that failed (a deadlock, a
 * statement timeout) goes again alone, as does every member when the database refused the whole
 * statement (undoneByDatabase). A lost connection fails them all, as it fails a lone add.
 */
async function sendMembers(ctx: Pick<AppContext, 'db' | 'clock'>, members: Member[]): Promise<Outcome[]> {
  if (members.length === 1) return [await sendAlone(ctx, members[0]!)];
  const counts = ctx.db.quickAdds;
  if (counts) {
    counts.groups++;
    counts.grouped += members.length;
  }
  const sent = members
    .map((member, index) => ({ member, index }))
    .sort((a, b) => (a.member.orderId < b.member.orderId ? -1 : a.member.orderId > b.member.orderId ? 1 : 0));
  let answers: ManyAnswer[];
  try {
    const row = await firstRow(quickAddManyStatement, ctx.db.db, {
      members: JSON.stringify(sent.map((s) => s.member)),
      now: ctx.clock.now(),
    });
    answers = row?.result ?? [];
  } catch (error) {
    if (!undoneByDatabase(error)) throw error;
    answers = [];
  }
  const outcomes: Outcome[] = new Array<Outcome>(members.length);
  await Promise.all(
    sent.map(async ({ member, index }, at) => {
      const answer = answers[at];
      outcomes[index] =
        !answer || 'error' in answer ? await sendAlone(ctx, member) : 'handedOver' in answer ? { handedOver: true } : { result: answer };
    }),
  );
  return outcomes;
}

/** Whether this add may try the one statement at all: PostgreSQL, and the plain case's role and options (mayTryPlainAdd). */
export function mayQuickAdd(db: Db, user: SessionUser, input: QuickAddInput): boolean {
  return db.kind === 'postgres' && mayTryPlainAdd(user.role, (input.optionIds ?? []).length);
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
      const outcome = await quickAddGroups(ctx).run({
        key: claim?.key ?? null,
        scope: claim?.scope ?? null,
        hash: claim?.hash ?? null,
        orderId: input.orderId,
        productId: input.productId,
        quantity: input.quantity,
        notes: normalizeOptionalText(input.notes),
        userId: user.id,
        userName: user.displayName,
        session,
        role: user.role,
        itemId: newId(),
        auditId: newId(),
        jobIds: Array.from({ length: JOB_IDS }, newId).join(','),
      });
      if ('thrown' in outcome) throw outcome.thrown;
      if ('handedOver' in outcome) throw HANDED_OVER;
      return outcome.result;
    });
  } catch (error) {
    if (error !== HANDED_OVER) throw error;
    if (ctx.db.quickAdds) ctx.db.quickAdds.handedOver++;
    return undefined;
  }
  if (!result) throw new Error('comanda_quick_add gave no result');
  if (ctx.db.quickAdds) ctx.db.quickAdds.taken++;
  // The live events as placeLine and raiseLine emit them: the new or raised line rides on them,
  // the boards patch it in.
  return answerOneLine(ctx, input.orderId, result, { lines: [boardLineOf(result.order, result.item)], removed: [] });
}
