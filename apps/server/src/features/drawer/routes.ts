import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CorteResponseSchema,
  CorteZBodySchema,
  DrawerMovementBodySchema,
  DrawerMovementParamsSchema,
  DrawerMovementResponseSchema,
  DrawerPrintResponseSchema,
  DrawerSessionParamsSchema,
  DrawerSessionsQuerySchema,
  DrawerSessionsResponseSchema,
  DrawerSettingsBodySchema,
  DrawerStateResponseSchema,
  OpenDrawerBodySchema,
  TipPayoutBodySchema,
  TipPayoutResponseSchema,
  TipPoolSchema,
  TipsQuerySchema,
  TipsResponseSchema,
} from '@comanda/contract';
import { ADMIN } from '../../http/access.ts';
import { requireUser } from '../../http/context.ts';
import { resolveShift, shiftInterval } from '../../model/shift-windows.ts';
import { addMovement, corteX, corteZ, openDrawer, printCorte, printMovement, setDrawerControl, type Caller } from './drawer.commands.ts';
import { drawerEnabled, findOpenSession, presentCorte, presentSession } from '../../model/drawer/drawer-store.ts';
import { payTip, setTipPool, tipsReport } from './tips.commands.ts';

const callerOf = (request: FastifyRequest): Caller => ({
  user: requireUser(request.user),
  ip: request.ip,
  sessionHash: request.sessionHash ?? null,
});

/** Caja: drawer sessions, cash movements, corte X and corte Z. Admin only. */
export const drawerRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.get('/api/drawer', { config: { access: ADMIN }, schema: { response: { 200: DrawerStateResponseSchema } } }, async () => {
    const db = ctx.db.db;
    const open = await findOpenSession(db);
    return { enabled: await drawerEnabled(db), session: open ? await presentSession(db, open) : null };
  });

  app.put('/api/drawer/settings', { config: { access: ADMIN }, schema: { body: DrawerSettingsBodySchema } }, async (request) =>
    setDrawerControl(request.ctx, callerOf(request), request.body.enabled),
  );

  app.post('/api/drawer/open', { config: { access: ADMIN }, schema: { body: OpenDrawerBodySchema } }, async (request) => ({
    session: await openDrawer(request.ctx, callerOf(request), request.body.count),
  }));

  app.post(
    '/api/drawer/movements',
    { config: { access: ADMIN }, schema: { body: DrawerMovementBodySchema, response: { 200: DrawerMovementResponseSchema } } },
    async (request) => addMovement(request.ctx, callerOf(request), request.body),
  );

  /** A movement's slip again, on the caja printer (0 jobs: no caja printer, print through the browser). */
  app.post(
    '/api/drawer/movements/:movementId/print',
    { config: { access: ADMIN }, schema: { params: DrawerMovementParamsSchema, response: { 200: DrawerPrintResponseSchema } } },
    async (request) => printMovement(request.ctx, callerOf(request), request.params.movementId),
  );

  /** Corte X (open session) or the stored corte Z (closed) on the caja printer. */
  app.post(
    '/api/drawer/sessions/:sessionId/print',
    { config: { access: ADMIN }, schema: { params: DrawerSessionParamsSchema, response: { 200: DrawerPrintResponseSchema } } },
    async (request) => printCorte(request.ctx, callerOf(request), request.params.sessionId),
  );

  app.get(
    '/api/drawer/sessions',
    { config: { access: ADMIN }, schema: { querystring: DrawerSessionsQuerySchema, response: { 200: DrawerSessionsResponseSchema } } },
    async (request) => {
      const shift = await resolveShift(ctx, request.query.date);
      // Every session belongs to one business date: from that date's shift start to the next date's.
      const next = new Date(Date.parse(`${shift.date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      const window = { start: shiftInterval(shift.date, shift).start, end: shiftInterval(next, shift).start };
      const db = ctx.db.db;
      const rows = await db
        .selectFrom('drawer_sessions')
        .selectAll()
        .where('status', '=', 'cerrada')
        .where('closed_at', '>=', window.start)
        .where('closed_at', '<', window.end)
        .orderBy('closed_at')
        .execute();
      const cortes = [];
      for (const row of rows) cortes.push(await presentCorte(db, row, ctx.clock.now()));
      return { date: shift.date, cortes };
    },
  );

  /** Corte X of an open session (figures so far, changes nothing), or the stored corte Z of a closed one. */
  app.get(
    '/api/drawer/sessions/:sessionId',
    { config: { access: ADMIN }, schema: { params: DrawerSessionParamsSchema, response: { 200: CorteResponseSchema } } },
    async (request) => ({ corte: await corteX(ctx, request.params.sessionId) }),
  );

  app.post(
    '/api/drawer/sessions/:sessionId/corte-z',
    {
      config: { access: ADMIN },
      schema: { params: DrawerSessionParamsSchema, body: CorteZBodySchema, response: { 200: CorteResponseSchema } },
    },
    async (request) => corteZ(request.ctx, callerOf(request), request.params.sessionId, request.body),
  );

  /** Tips per person: of the open session by default, of a session, or of a range of business dates. */
  app.get(
    '/api/drawer/tips',
    { config: { access: ADMIN }, schema: { querystring: TipsQuerySchema, response: { 200: TipsResponseSchema } } },
    async (request) => tipsReport(ctx, request.query),
  );

  /** A tip payout from the open session, signed with the PIN of who receives it. */
  app.post(
    '/api/drawer/tips/payouts',
    { config: { access: ADMIN }, schema: { body: TipPayoutBodySchema, response: { 200: TipPayoutResponseSchema } } },
    async (request) => payTip(request.ctx, callerOf(request), request.body),
  );

  /** Pooling rules: percent of the card and transfer tips per role. */
  app.put('/api/drawer/tips/pool', { config: { access: ADMIN }, schema: { body: TipPoolSchema } }, async (request) =>
    setTipPool(request.ctx, callerOf(request), request.body),
  );
};
