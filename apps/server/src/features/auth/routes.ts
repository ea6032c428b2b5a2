import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LoginBodySchema, MeResponseSchema, OkSchema, ROLES, type Role } from '@comanda/contract';
import { requireUser } from '../../http/context.ts';
import { AppError, tooManyRequests, unauthorized } from '../../http/errors.ts';
import { audit } from '../../http/audit.ts';
import { verifyPassword } from '../../auth/password.ts';
import { LOGIN_BACKOFF, LOGIN_QUEUE_PER_ACCOUNT, loginKeys, waitMessage, type BackoffCounted } from '../../auth/throttle.ts';
import type { AppContext } from '../../http/context.ts';
import { clearSessionCookie, createSession, endSession, setSessionCookie } from '../../auth/sessions.ts';
import { MESSAGES } from '../../http/messages.ts';

export const AUTH_MESSAGES = MESSAGES.auth;

export const authRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.post(
    '/api/auth/login',
    { config: { access: 'public' }, schema: { body: LoginBodySchema, response: { 200: MeResponseSchema } } },
    async (request, reply) => {
      const email = request.body.email.trim().toLowerCase();
      const ip = request.ip;
      const keys = { pair: loginKeys.pair(email, ip), account: loginKeys.account(email), address: loginKeys.address(ip) };
      // One check at a time per account: parallel guesses would otherwise all pass the back-off
      // check before the first failure is counted.
      const checked = await ctx.throttle.serialize(keys.account, LOGIN_QUEUE_PER_ACCOUNT, async () => {
        // During a back-off window the password is not even checked; after it, it always is.
        // The failure is counted before the check (shared by every server process) and taken
        // back if the password is right.
        const scopes = Object.keys(keys) as (keyof typeof keys)[];
        const reserved = await ctx.throttle.backoffReserve(scopes.map((k) => [keys[k], LOGIN_BACKOFF[k]] as const));
        if (!reserved.ok) {
          reply.header('retry-after', String(Math.ceil(reserved.waitMs / 1000)));
          throw tooManyRequests(waitMessage(reserved.waitMs));
        }
        let row: Awaited<ReturnType<typeof findUser>>;
        let ok: boolean;
        try {
          row = await findUser(ctx, email);
          ok = await verifyPassword(row?.password_hash ?? null, request.body.password);
        } catch (error) {
          await ctx.throttle.backoffRefund(reserved.counted).catch(() => undefined); // the server failed, not the guess
          throw error;
        }
        if (!row || !ok) {
          await recordLoginFailure(ctx, {
            email,
            ip,
            userId: row?.id ?? null,
            counted: scopes.map((k, i) => [k, reserved.counted[i]!] as const),
          });
          throw new AppError(
            401,
            row ? 'wrong_password' : 'user_not_found',
            row ? AUTH_MESSAGES.wrongPassword : AUTH_MESSAGES.userNotFound,
          );
        }
        await ctx.throttle.backoffRefund(reserved.counted);
        return row;
      });
      if (!checked) throw tooManyRequests(waitMessage(1000));
      const user = checked;
      if (user.active === 0) throw new AppError(403, 'inactive', AUTH_MESSAGES.inactive);
      if (!(ROLES as readonly string[]).includes(user.role)) throw new AppError(403, 'unknown_role', AUTH_MESSAGES.unknownRole);
      // Only this device's count starts over: the account's and the address's keep counting.
      await ctx.throttle.reset(keys.pair);
      const token = await createSession(ctx, user.id);
      setSessionCookie(ctx, reply, token, isSecure(ctx.config.SECURE_COOKIES, request.protocol));
      return { user: { id: user.id, email: user.email, displayName: user.display_name, role: user.role as Role } };
    },
  );

  app.post('/api/auth/logout', { config: { access: 'public' }, schema: { response: { 200: OkSchema } } }, async (request, reply) => {
    if (request.sessionHash) await endSession(ctx, request.sessionHash);
    clearSessionCookie(reply);
    return { ok: true as const };
  });

  app.get('/api/auth/me', { config: { access: 'public' }, schema: { response: { 200: MeResponseSchema } } }, async (request) => {
    if (!request.user) throw unauthorized();
    return { user: requireUser(request.user) };
  });
};

const findUser = (ctx: AppContext, email: string) =>
  ctx.db.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();

function isSecure(setting: 'auto' | 'true' | 'false', protocol: string): boolean {
  if (setting === 'auto') return protocol === 'https';
  return setting === 'true';
}

/**
 * Audits a failed sign-in (already counted against the account+address pair, the account and
 * the address); each back-off that starts is audited too (and the users list refreshes, where the
 * admin sees the lock and can lift it).
 */
async function recordLoginFailure(
  ctx: AppContext,
  input: { email: string; ip: string; userId: string | null; counted: readonly (readonly [keyof typeof LOGIN_BACKOFF, BackoffCounted])[] },
): Promise<void> {
  const now = ctx.clock.now();
  await audit(ctx.db.db, now, {
    actor: null,
    action: 'auth.login_failed',
    entity: 'user',
    entityId: input.userId,
    data: { email: input.email, ip: input.ip },
  });
  for (const [scope, { waitMs, failures }] of input.counted) {
    if (waitMs === 0) continue;
    await audit(ctx.db.db, now, {
      actor: null,
      action: 'auth.locked',
      entity: 'user',
      entityId: input.userId,
      data: {
        scope,
        email: scope === 'address' ? null : input.email,
        ip: scope === 'account' ? null : input.ip,
        failures,
        waitMs,
        until: now + waitMs,
      },
    });
    if (input.userId && scope !== 'address')
      ctx.live.publish({ topic: 'users', type: 'user.updated', id: input.userId, version: now, at: now });
  }
}
