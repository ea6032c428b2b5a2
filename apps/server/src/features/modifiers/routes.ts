import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  IdSchema,
  ModifierAvailabilityBodySchema,
  ModifierGroupBodySchema,
  ModifierGroupResponseSchema,
  ModifierGroupsResponseSchema,
  OkSchema,
} from '@comanda/contract';
import { ADMIN, STAFF_FLOOR } from '../../http/access.ts';
import { requireUser } from '../../http/context.ts';
import { listModifierGroups } from '../../model/modifiers/modifier-store.ts';
import { deleteModifierGroup, saveModifierGroup, setOptionAvailability } from './modifier-commands.ts';

const ParamsSchema = z.strictObject({ id: IdSchema });

/** Modifier groups (decision 0026): the admin manages them; waiters read them for the picker. */
export const modifiersRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.get(
    '/api/modifier-groups',
    { config: { access: STAFF_FLOOR }, schema: { response: { 200: ModifierGroupsResponseSchema } } },
    async () => ({ groups: await listModifierGroups(ctx.db.db) }),
  );

  app.post(
    '/api/modifier-groups',
    { config: { access: ADMIN }, schema: { body: ModifierGroupBodySchema, response: { 201: ModifierGroupResponseSchema } } },
    async (request, reply) => {
      const group = await saveModifierGroup(request.ctx, requireUser(request.user), null, request.body);
      return reply.code(201).send({ group });
    },
  );

  app.put(
    '/api/modifier-groups/:id',
    {
      config: { access: ADMIN },
      schema: { params: ParamsSchema, body: ModifierGroupBodySchema, response: { 200: ModifierGroupResponseSchema } },
    },
    async (request) => ({ group: await saveModifierGroup(request.ctx, requireUser(request.user), request.params.id, request.body) }),
  );

  app.delete(
    '/api/modifier-groups/:id',
    { config: { access: ADMIN }, schema: { params: ParamsSchema, response: { 200: OkSchema } } },
    async (request) => {
      await deleteModifierGroup(request.ctx, requireUser(request.user), request.params.id);
      return { ok: true as const };
    },
  );

  app.patch(
    '/api/modifier-options/:id/availability',
    {
      config: { access: ADMIN },
      schema: { params: ParamsSchema, body: ModifierAvailabilityBodySchema, response: { 200: ModifierGroupResponseSchema } },
    },
    async (request) => ({
      group: await setOptionAvailability(request.ctx, requireUser(request.user), request.params.id, request.body.available),
    }),
  );
};
