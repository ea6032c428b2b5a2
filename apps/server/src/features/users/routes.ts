import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateUserBodySchema,
  CreateUserResponseSchema,
  IdSchema,
  MessageResponseSchema,
  OkSchema,
  ResetPasswordBodySchema,
  ResetTokenInfoSchema,
  ResetTokenParamsSchema,
  UpdateUserBodySchema,
  UserActiveBodySchema,
  UserResponseSchema,
  UsersResponseSchema,
  USER_MESSAGES,
} from '@comanda/contract';
import type { AppContext } from '../../http/context.ts';
import { ADMIN } from '../../http/access.ts';
import { requireUser } from '../../http/context.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import { createUser, requestPasswordReset, setUserActive, updateUser } from './user-commands.ts';
import { setPasswordFromToken } from './set-password.command.ts';
import { listUsers } from './user-store.ts';
import { unlockUser, withLock } from './user-lock.ts';
import { findLiveToken, linkFor, sendTokenMail } from './user-tokens.ts';

const ParamsSchema = z.strictObject({ id: IdSchema });
const RESET_SEND_ERROR = 'Error al enviar enlace';

/** Links point at PUBLIC_URL when set (behind a proxy), otherwise at the address the admin is using. */
function linkBase(ctx: AppContext, request: FastifyRequest): string {
  return ctx.config.PUBLIC_URL ?? `${request.protocol}://${request.host}`;
}

export const usersRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.get('/api/users', { config: { access: ADMIN }, schema: { response: { 200: UsersResponseSchema } } }, async () => ({
    users: await Promise.all((await listUsers(ctx.db.db)).map((user) => withLock(ctx, user))),
  }));

  app.post(
    '/api/users',
    { config: { access: ADMIN }, schema: { body: CreateUserBodySchema, response: { 201: CreateUserResponseSchema } } },
    async (request, reply) => {
      const { user, token } = await createUser(request.ctx, requireUser(request.user), request.body);
      let inviteSent = true;
      try {
        await sendTokenMail(ctx, user, 'invite', linkFor(linkBase(ctx, request), token));
      } catch (error) {
        request.log.error({ err: error }, 'invitation e-mail failed');
        inviteSent = false;
      }
      return reply.code(201).send({ user, inviteSent });
    },
  );

  app.patch(
    '/api/users/:id',
    { config: { access: ADMIN }, schema: { params: ParamsSchema, body: UpdateUserBodySchema, response: { 200: UserResponseSchema } } },
    async (request) => ({
      user: await updateUser(request.ctx, requireUser(request.user), request.params.id, request.body),
    }),
  );

  app.patch(
    '/api/users/:id/active',
    { config: { access: ADMIN }, schema: { params: ParamsSchema, body: UserActiveBodySchema, response: { 200: UserResponseSchema } } },
    async (request) => ({
      user: await setUserActive(request.ctx, requireUser(request.user), request.params.id, request.body.active),
    }),
  );

  // 'Desbloquear': lifts a sign-in back-off (wrong passwords) and the PIN failures of the account.
  app.post(
    '/api/users/:id/unlock',
    { config: { access: ADMIN }, schema: { params: ParamsSchema, response: { 200: UserResponseSchema } } },
    async (request) => ({ user: await unlockUser(request.ctx, requireUser(request.user), request.params.id) }),
  );

  app.post(
    '/api/users/:id/reset',
    { config: { access: ADMIN }, schema: { params: ParamsSchema, response: { 200: MessageResponseSchema } } },
    async (request) => {
      const { user, token } = await requestPasswordReset(request.ctx, requireUser(request.user), request.params.id);
      try {
        await sendTokenMail(ctx, user, 'reset', linkFor(linkBase(ctx, request), token));
      } catch (error) {
        request.log.error({ err: error }, 'reset e-mail failed');
        throw new AppError(502, 'mail_failed', RESET_SEND_ERROR);
      }
      return { ok: true as const, message: `Enlace enviado a ${user.email}` };
    },
  );

  // Public: the person holding the e-mailed link has no session yet.
  app.get(
    '/api/auth/reset-password/:token',
    { config: { access: 'public' }, schema: { params: ResetTokenParamsSchema, response: { 200: ResetTokenInfoSchema } } },
    async (request) => {
      const live = await findLiveToken(ctx.db.db, request.params.token, ctx.clock.now());
      if (!live) throw badRequest(USER_MESSAGES.invalidLink, 'invalid_token');
      return { email: live.email, purpose: live.purpose };
    },
  );

  app.post(
    '/api/auth/reset-password',
    { config: { access: 'public' }, schema: { body: ResetPasswordBodySchema, response: { 200: OkSchema } } },
    async (request) => {
      await setPasswordFromToken(request.ctx, request.body.token, request.body.password);
      return { ok: true as const };
    },
  );
};
