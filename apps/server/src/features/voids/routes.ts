import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CancellationsReportSchema, CashCloseQuerySchema, VoidReasonsBodySchema, VoidReasonsSchema } from '@comanda/contract';
import { normalizeVoidReasons } from '@comanda/domain';
import { ADMIN } from '../../http/access.ts';
import { requireUser } from '../../http/context.ts';
import { badRequest } from '../../http/errors.ts';
import { mutate } from '../../http/transaction.ts';
import { audit } from '../../http/audit.ts';
import { getVoidReasons, saveVoidReasons } from '../../model/voids/void-reasons.ts';
import { resolveShift, shiftInterval } from '../../model/shift-windows.ts';
import { cancellationsReport } from './cancellations.query.ts';

/** The void reason list (read by every signed-in screen, edited by the admin) and the cash close's Cancelaciones. */
export const voidsRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.get('/api/config/void-reasons', { config: { access: 'any' }, schema: { response: { 200: VoidReasonsSchema } } }, async () => ({
    reasons: await getVoidReasons(ctx.db.db),
  }));

  app.put(
    '/api/config/void-reasons',
    { config: { access: ADMIN }, schema: { body: VoidReasonsBodySchema, response: { 200: VoidReasonsSchema } } },
    async (request) => {
      const user = requireUser(request.user);
      const cleaned = normalizeVoidReasons(request.body.reasons);
      if ('error' in cleaned) throw badRequest(cleaned.error, 'void_reasons_invalid');
      return mutate(request.ctx, async (trx, emit) => {
        const now = ctx.clock.now();
        const before = await getVoidReasons(trx);
        await saveVoidReasons(trx, cleaned.reasons, now);
        await audit(trx, now, {
          actor: { id: user.id, displayName: user.displayName },
          action: 'config.void-reasons.update',
          entity: 'config',
          entityId: 'void_reasons',
          data: { before, after: cleaned.reasons },
        });
        emit({ topic: 'config', type: 'config.updated', id: 'void_reasons', version: now });
        return { reasons: cleaned.reasons };
      });
    },
  );

  app.get(
    '/api/cash-close/cancellations',
    { config: { access: ADMIN }, schema: { querystring: CashCloseQuerySchema, response: { 200: CancellationsReportSchema } } },
    async (request) => {
      const shift = await resolveShift(ctx, request.query.date);
      return cancellationsReport(ctx.db.db, shiftInterval(shift.date, shift), shift.date);
    },
  );
};
