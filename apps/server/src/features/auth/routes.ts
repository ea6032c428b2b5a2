import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LoginBodySchema, MeResponseSchema, OkSchema, ROLES, type Role } from '@comanda/contract';
import { requireUser } from '../../http/context.ts';
import { AppError, tooManyRequests, unauthorized } from '../../http/errors.ts';
import { audit } from '../../http/audit.ts';
import { verifyPassword } from '../../auth/password.ts';
import { LOGIN_LIMITS } from '../../auth/throttle.ts';
import { clearSessionCookie, createSession, endSession, setSessionCookie } from '../../auth/sessions.ts';

export const AUTH_MESSAGES = {
  userNotFound: 'Usuario no encontrado',
  wrongPassword: 'Contraseña incorrecta',
  inactive: 'Usuario inactivo, contacte al administrador',
  unknownRole: 'Rol de usuario no reconocido',
} as const;

export const authRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.post(
    '/api/auth/login',
    { config: { access: 'public' }, schema: { body: LoginBodySchema, response: { 200: MeResponseSchema } } },
    async (request, reply) => {
      const email = request.body.email.trim().toLowerCase();
      const accountKey = `login:email:${email}`;
      const addressKey = `login:ip:${request.ip}`;
      const { perAccount, perAddress } = LOGIN_LIMITS;
      if (
        ctx.throttle.isBlocked(accountKey, perAccount.limit, perAccount.windowMs) ||
        ctx.throttle.isBlocked(addressKey, perAddress.limit, perAddress.windowMs)
      ) {
        throw tooManyRequests();
      }
      const user = await ctx.db.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
      const ok = await verifyPassword(user?.password_hash ?? null, request.body.password);
      if (!user || !ok) {
        ctx.throttle.fail(accountKey);
        ctx.throttle.fail(addressKey);
        await audit(ctx.db.db, ctx.clock.now(), {
          actor: null,
          action: 'auth.login_failed',
          entity: 'user',
          entityId: user?.id ?? null,
          data: { email, ip: request.ip },
        });
        throw new AppError(
          401,
          user ? 'wrong_password' : 'user_not_found',
          user ? AUTH_MESSAGES.wrongPassword : AUTH_MESSAGES.userNotFound,
        );
      }
      if (user.active === 0) throw new AppError(403, 'inactive', AUTH_MESSAGES.inactive);
      if (!(ROLES as readonly string[]).includes(user.role)) throw new AppError(403, 'unknown_role', AUTH_MESSAGES.unknownRole);
      ctx.throttle.reset(accountKey);
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

function isSecure(setting: 'auto' | 'true' | 'false', protocol: string): boolean {
  if (setting === 'auto') return protocol === 'https';
  return setting === 'true';
}
