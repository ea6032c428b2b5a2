import { sql } from 'kysely';
import type { Role } from '@comanda/contract';
import { isValidPin, PIN_MESSAGES } from '@comanda/domain';
import type { AppContext } from '../http/context.ts';
import { AppError, tooManyRequests } from '../http/errors.ts';
import { audit } from '../http/audit.ts';
import { PIN_LIMITS, pinKeys } from './throttle.ts';
import { newId } from '../http/ids.ts';

export interface PinUser {
  id: string;
  displayName: string;
  role: Role;
}

export interface VerifyPinInput {
  pin: string;
  /** The signed-in user asking; null for a PIN sign-in on a shared device (nobody is signed in). */
  actorId: string | null;
  /** The caller's session: guesses are limited per session too. */
  sessionHash?: string | null;
  ip: string;
  /** What the PIN authorises ('delete-item', 'cash-close'); every caller shares its budget. */
  purpose: string;
  /**
   * Only a PIN of one of these roles is accepted. Any other user's PIN is answered exactly like
   * a wrong one (it must not reveal that the PIN belongs to someone); the caller's own PIN gets
   * `ownPinRefused`, which tells the caller nothing new.
   */
  roles?: readonly Role[];
  ownPinRefused?: AppError;
  /** Only this user's PIN is accepted (a PIN sign-in names the person first); any other PIN is wrong. */
  userId?: string;
  /** Further budgets this caller spends (e.g. per shared device), counted like the others. */
  extraLimits?: readonly [string, { limit: number; windowMs: number }][];
  /** Added to the pin.failed / pin.locked audit entries (e.g. the shared device's id). */
  auditData?: Record<string, unknown>;
}

/**
 * Identifies the active user a PIN belongs to (the spec's "PIN identifies a user").
 * Failures count per session, per signed-in user, per purpose (across every user and address)
 * and per address, and are audited; a correct PIN never clears them.
 */
export async function verifyPin(ctx: AppContext, input: VerifyPinInput): Promise<PinUser> {
  const limits = pinBudgets(input);
  return answerAttempt(ctx, input, limits, await attemptPin(ctx, input, limits));
}

/** The budgets an attempt spends, each a key and its rule: per signed-in user, per purpose, per address, the caller's extra ones, per session. */
export function pinBudgets(input: VerifyPinInput): Limits {
  const { perSession, perUser, perTarget, perAddress } = PIN_LIMITS;
  const target = perTarget[input.purpose as keyof typeof perTarget] ?? perTarget.default;
  const limits: Limits = [[pinKeys.target(input.purpose), target], [pinKeys.address(input.ip), perAddress], ...(input.extraLimits ?? [])];
  if (input.actorId) limits.unshift([pinKeys.user(input.actorId), perUser]);
  if (input.sessionHash) limits.push([pinKeys.session(input.sessionHash), perSession]);
  return limits;
}

/**
 * What an attempt was judged, answered: the user for an accepted PIN; otherwise the refusal it gets,
 * a failure audited first (pin.failed, and pin.locked for each budget it used up).
 */
export async function answerAttempt(ctx: AppContext, input: VerifyPinInput, limits: Limits, judged: Judged): Promise<PinUser> {
  if (judged.outcome === 'blocked') throw tooManyRequests();
  if (judged.outcome === 'own') throw input.ownPinRefused!;
  if (judged.outcome === 'accepted') return judged.user;
  const now = ctx.clock.now();
  const actor = input.actorId ? { id: input.actorId, displayName: '' } : null;
  await audit(ctx.db.db, now, {
    actor,
    action: 'pin.failed',
    entity: 'pin',
    entityId: null,
    data: { purpose: input.purpose, ip: input.ip, ...input.auditData },
  });
  // This failure used up a budget: the next guesses wait out its window. Audited once, when it starts.
  for (const [i, [key, rule]] of limits.entries()) {
    if (judged.counts[i] !== rule.limit) continue; // not spent yet, or already over: not a new lock
    const scope = key.split(':')[1];
    await audit(ctx.db.db, now, {
      actor,
      action: 'pin.locked',
      entity: 'pin',
      entityId: null,
      data: { scope, purpose: input.purpose, ip: input.ip, failures: rule.limit, windowMs: rule.windowMs, ...input.auditData },
    });
  }
  throw new AppError(403, 'wrong_pin', PIN_MESSAGES.wrong);
}

/** The hash a PIN is looked up by, or null for one that cannot be a PIN (it matches nobody). */
export function pinHashOf(ctx: AppContext, pin: string): string | null {
  return isValidPin(pin) ? ctx.pins.hash(pin) : null;
}

export type Limits = [string, { limit: number; windowMs: number }][];

/**
 * What an attempt came to: a budget already spent (nothing counted), the PIN accepted or the
 * caller's own refused (nothing counted), or a failure counted on every budget (`counts`: the
 * failures inside each window, this one included, in the order of the limits).
 */
export type Judged =
  { outcome: 'blocked' } | { outcome: 'own' } | { outcome: 'accepted'; user: PinUser } | { outcome: 'wrong'; counts: number[] };

/**
 * PostgreSQL: one round trip, `comanda_pin_attempt` (db/functions), which serialises the attempts
 * on each budget key with an advisory lock, so it counts only failures and never gives one back.
 */
async function attemptInOneCall(ctx: AppContext, input: VerifyPinInput, limits: Limits): Promise<Judged> {
  const { rows } = await sql<AttemptRow>`select * from ${pinAttemptCall(ctx, input, limits)}`.execute(ctx.db.db);
  return judgedFrom(rows[0]!);
}

/** What `comanda_pin_attempt` answers: one row of its OUT parameters. */
export interface AttemptRow {
  outcome: Judged['outcome'];
  user_id: string | null;
  user_name: string | null;
  user_role: string | null;
  counts: number[] | null;
}

/** PostgreSQL: the attempt's call (`comanda_pin_attempt`, db/functions) with its budgets, for a statement's FROM. */
export function pinAttemptCall(ctx: AppContext, input: VerifyPinInput, limits: Limits) {
  return sql<AttemptRow>`comanda_pin_attempt(
      ${limits.map(([key]) => key)}::text[], ${limits.map(([, rule]) => rule.windowMs)}::bigint[], ${limits.map(([, rule]) => rule.limit)}::integer[],
      ${pinHashOf(ctx, input.pin)}, ${input.roles ? [...input.roles] : null}::text[], ${input.actorId},
      ${input.ownPinRefused !== undefined}, ${newId()}, ${ctx.clock.now()})`;
}

/** The attempt's row as a Judged. */
export function judgedFrom(row: AttemptRow): Judged {
  if (row.outcome === 'accepted')
    return { outcome: 'accepted', user: { id: row.user_id!, displayName: row.user_name!, role: row.user_role as Role } };
  if (row.outcome === 'wrong') return { outcome: 'wrong', counts: (row.counts ?? []).map(Number) };
  return { outcome: row.outcome };
}

/** The attempt alone, on either database: what verifyPin judges before it answers. */
export function attemptPin(ctx: AppContext, input: VerifyPinInput, limits: Limits): Promise<Judged> {
  // `comanda_pin_attempt` finds the PIN's owner by the PIN alone: a named person's attempt is counted first on both.
  if (ctx.db.kind === 'postgres' && input.userId === undefined) return attemptInOneCall(ctx, input, limits);
  return attemptCountedFirst(ctx, input, limits);
}

/** Count-first: how often, and how long, a request over a PIN budget waits for attempts still in flight. */
const IN_FLIGHT_RETRIES = 4;
const IN_FLIGHT_WAIT_MS = 60;

/**
 * SQLite (and the rule's reference): the attempt counted as a failure before the PIN is judged,
 * given back when it was not one.
 */
async function attemptCountedFirst(ctx: AppContext, input: VerifyPinInput, limits: Limits): Promise<Judged> {
  // The PIN's owner is looked up while the attempt is counted. Nothing is decided, or answered,
  // before both are back.
  const pinHash = pinHashOf(ctx, input.pin);
  let query = ctx.db.db
    .selectFrom('users')
    .select(['id', 'display_name', 'role', 'active'])
    .where('pin_hash', '=', pinHash ?? '');
  if (input.userId !== undefined) query = query.where('id', '=', input.userId);
  const lookup = pinHash ? query.executeTakeFirst() : Promise.resolve(undefined);
  lookup.catch(() => undefined); // awaited below; refused over a budget, it is not awaited at all
  // Counted as a failure before the PIN is judged (one INSERT, then one count), so parallel
  // guesses, in this process or another, see each other; given back if the guess is refused for
  // being over a budget, if the PIN is accepted, or if it is the caller's own.
  // An attempt still in flight counts too: a correct PIN is given back within milliseconds, so a
  // request over a budget looks again a few times before it is refused. Real failures stay
  // counted; correct PINs racing each other (several checks closed at once) are not refused.
  let attempt: Awaited<ReturnType<typeof ctx.throttle.hit>>;
  for (let tries = 0; ; tries++) {
    attempt = await ctx.throttle.hit(limits.map(([key, rule]) => [key, rule.windowMs] as const));
    if (!attempt.counts.some((n, i) => n > limits[i]![1].limit)) break;
    await ctx.throttle.refund(attempt.batch);
    if (tries >= IN_FLIGHT_RETRIES) return { outcome: 'blocked' };
    await new Promise((resolve) => setTimeout(resolve, IN_FLIGHT_WAIT_MS * (tries + 1)));
  }
  const { batch, counts } = attempt;
  const refund = () => ctx.throttle.refund(batch);

  let user: Awaited<typeof lookup>;
  try {
    user = await lookup;
  } catch (error) {
    await refund().catch(() => undefined); // the database failed, not the guess
    throw error;
  }
  const found = user && user.active !== 0 ? { id: user.id, displayName: user.display_name, role: user.role as Role } : null;
  const allowed = found !== null && (!input.roles || input.roles.includes(found.role));
  if (found && !allowed && found.id === input.actorId && input.ownPinRefused) {
    await refund();
    return { outcome: 'own' };
  }
  if (!found || !allowed) return { outcome: 'wrong', counts };
  await refund();
  return { outcome: 'accepted', user: found };
}
