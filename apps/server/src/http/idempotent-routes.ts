import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isValidPin } from '@comanda/domain';
import { IDEMPOTENCY_KEY_PATTERN } from '@comanda/contract';
import type { AppContext } from './context.ts';
import { AppError, badRequest, conflict } from './errors.ts';
import { sha256 } from './ids.ts';
import { IDEMPOTENCY_MESSAGES, requestHash, RESPONSE_GRACE_MS, storedKeyOf, type KeyRow, type StoredResponse } from './idempotency.ts';
import { AnswerStore } from './idempotent-answers.ts';
import { withKey, withoutKey, type KeyedRequest, type WriteContext } from './request-context.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * 'own': the route claims its key itself (order close, card payments); the generic layer stays out.
     * 'claim-first': the handler's first effect is its mutate(), whose claim meets a repeat's key
     * inside the transaction, so the key is not read before the handler (one round trip fewer on
     * the hottest writes: an add, a line's status, opening a table). Nothing may run before that
     * mutate() that a repeat could answer differently from the first request's answer.
     */
    idempotency?: 'own' | 'claim-first';
  }
  interface FastifyRequest {
    keyed: KeyedRequest | null;
    /** The context this request's writes run with: the app's, with the request's key when it carries one. */
    ctx: WriteContext;
  }
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const SECRET_FIELD = /pin|password/i;
export const REPLAYED_HEADER = 'idempotent-replayed';
const ANSWERS_SERVICE = 'idempotent-answers';

/** Resolves once every answer sent so far is written (tests that compare the database between requests). */
export async function keptAnswersWritten(ctx: AppContext): Promise<void> {
  await (ctx.services.get(ANSWERS_SERVICE) as AnswerStore | undefined)?.flush();
}

/**
 * Every signed-in POST/PUT/PATCH/DELETE under /api honours an Idempotency-Key header:
 * - the key is scoped to the session user, the method and the route pattern;
 * - a repeat with the same params and body gets the first response (status and body) again,
 *   with no second write; another request under the same key gets 422; a key whose first
 *   request has not answered yet gets 409;
 * - the key is claimed by the request's first mutate(), inside its transaction (transaction.ts),
 *   and the response is kept as it is sent (onSend), written a moment later with others (idempotent-answers.ts).
 * Public routes (login, logout, password links, webhooks) and routes that keep their own keys
 * (`config.idempotency: 'own'`) are left alone.
 */
export function installIdempotentRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('keyed', null);
  const answers = new AnswerStore(ctx.db, (err) => app.log.warn({ err }, 'idempotent answers not stored'));
  ctx.services.set(ANSWERS_SERVICE, answers);
  app.addHook('onClose', async () => answers.flush());

  const plain = withoutKey(ctx);
  const strict = ctx.config.CHECK_RESPONSES === 'on';
  app.decorateRequest('ctx', {
    getter(this: FastifyRequest): WriteContext {
      return this.keyed ? withKey(ctx, this.keyed) : plain;
    },
  });

  // Callback-style hooks (here and in onSend): most requests pass them without a promise.
  app.addHook('preHandler', (request, reply, done) => {
    let keyed: KeyedRequest | null;
    try {
      keyed = keyOf(request);
    } catch (error) {
      return done(error as Error);
    }
    if (!keyed) return done();
    if (request.routeOptions.config.idempotency === 'claim-first') {
      request.keyed = keyed;
      return done();
    }
    replayIfRepeated(request, reply, keyed).then((replayed) => {
      if (!replayed) done(); // a replay has answered: the request goes no further
    }, done);
  });

  /** The request's key, scoped and hashed, or null when the request carries none or its route keeps its own. */
  const keyOf = (request: FastifyRequest): KeyedRequest | null => {
    const header = request.headers['idempotency-key'];
    if (header === undefined || !MUTATING.has(request.method) || !request.user) return null;
    const config = request.routeOptions.config;
    if (!request.url.startsWith('/api') || config.access === 'public' || config.idempotency === 'own') return null;
    if (typeof header !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(header)) throw badRequest(IDEMPOTENCY_MESSAGES.invalid, 'validation');
    const scope = `${request.user.id} ${request.method} ${request.routeOptions.url ?? ''}`;
    const key = storedKeyOf(scope, header);
    const hash = requestHash({ params: request.params ?? null, body: hideSecrets(ctx, request.body ?? null) });
    // A repeat of the key (its row found): the first answer, or why there is none.
    const repeat = (row: KeyRow): StoredResponse => {
      if (row.scope !== scope || row.request_hash !== hash) {
        throw new AppError(422, 'idempotency_key_reused', IDEMPOTENCY_MESSAGES.reused);
      }
      if (row.status_code !== null && row.response !== null) return { statusCode: row.status_code, body: null, json: row.response };
      // Sent but not yet written (idempotent-answers.ts): this process still holds it.
      const kept = answers.answerOf(key);
      if (kept) return { statusCode: kept.statusCode, body: null, json: kept.json };
      // The write committed with its claim; its response is written a moment later. A
      // process that died in that moment leaves the key without one: say so, never rewrite.
      if (ctx.clock.now() - Number(row.created_at) < RESPONSE_GRACE_MS) {
        throw conflict(IDEMPOTENCY_MESSAGES.inFlight, 'idempotency_in_flight');
      }
      throw conflict(IDEMPOTENCY_MESSAGES.applied, 'idempotency_applied');
    };
    return { key, scope, hash, state: 'open', repeat };
  };

  /** Answers a repeat of a key already used (true), or lets the request claim it (false). */
  const replayIfRepeated = async (request: FastifyRequest, reply: FastifyReply, keyed: KeyedRequest): Promise<boolean> => {
    const readKey = () => ctx.db.db.selectFrom('idempotency_keys').selectAll().where('key', '=', keyed.key).executeTakeFirst();
    let row = await readKey();
    if (!row) {
      request.keyed = keyed;
      return false;
    }
    // Without an answer in the row or here, its batch may have committed after the read: read once more.
    if ((row.status_code === null || row.response === null) && !answers.answerOf(keyed.key)) {
      row = (await readKey()) ?? row;
    }
    const answer = keyed.repeat(row);
    reply.code(answer.statusCode).header(REPLAYED_HEADER, 'true').type('application/json; charset=utf-8').send(answer.json);
    return true;
  };

  app.addHook('onSend', (request, reply, payload, done) => {
    const keyed = request.keyed;
    if (!keyed) return done(null, payload);
    const claimed = keyed.state === 'claimed';
    const unclaimed = keyed.state === 'open';
    keyed.state = 'closed'; // store once; nothing this request left running may claim the key after its answer
    // A keyed write answered as done without claiming its key: its handler gave its command a
    // context without the key (not request.ctx), and a repeat would write again. The suites fail it.
    if (unclaimed && reply.statusCode < 300 && strict) {
      return done(
        new Error(`${request.method} ${request.routeOptions.url ?? ''} answered ${reply.statusCode} without claiming its Idempotency-Key`),
      );
    }
    if (!claimed || typeof payload !== 'string') return done(null, payload);
    // A server error after the commit (the answer could not be read back) is not the answer to
    // replay forever: the claim stays without one, and retries learn the write was applied.
    if (reply.statusCode >= 500) return done(null, payload);
    // The write is committed: failing to keep its answer must not turn it into an error. A
    // retry then meets the claim without an answer (409 in flight, later applied).
    answers.keep(keyed.key, { statusCode: reply.statusCode, json: payload });
    done(null, payload);
  });
}

/** The request hash never holds a PIN or password that could be recovered from it: PINs are keyed (HMAC). */
function hideSecrets(ctx: AppContext, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => hideSecrets(ctx, v));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (SECRET_FIELD.test(k) && typeof v === 'string') out[k] = isValidPin(v) ? ctx.pins.hash(v) : sha256(`secret:${v}`);
    else out[k] = hideSecrets(ctx, v);
  }
  return out;
}
