import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AdjustmentsSummarySchema,
  CashCloseQuerySchema,
  CashCloseResponseSchema,
  OutsideShiftResponseSchema,
  PromotionDiscountsResponseSchema,
} from '@comanda/contract';
import { ADMIN } from '../../http/access.ts';
import { cashCloseReport, outsideShiftReport } from './cash-close.query.ts';
import { shiftCsv } from './export-csv.ts';
import { shiftAdjustments } from './adjustments.query.ts';
import { shiftPromotionDiscounts } from './promotions.query.ts';
import { resolveShift, shiftInterval } from '../../model/shift-windows.ts';

/** Cierre de Caja (SPEC §2, §3, §9): admin only; the shift window is computed here, never in the browser. */
export const cashCloseRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.get(
    '/api/cash-close',
    { config: { access: ADMIN }, schema: { querystring: CashCloseQuerySchema, response: { 200: CashCloseResponseSchema } } },
    async (request) => cashCloseReport(ctx, request.query.date),
  );

  app.get(
    '/api/cash-close/outside',
    { config: { access: ADMIN }, schema: { querystring: CashCloseQuerySchema, response: { 200: OutsideShiftResponseSchema } } },
    async (request) => outsideShiftReport(ctx, request.query.date),
  );

  // Descuentos y cortesías of the shift, by reason and by user.
  app.get(
    '/api/cash-close/adjustments',
    { config: { access: ADMIN }, schema: { querystring: CashCloseQuerySchema, response: { 200: AdjustmentsSummarySchema } } },
    async (request) => {
      const shift = await resolveShift(ctx, request.query.date);
      return shiftAdjustments(ctx.db.db, shiftInterval(shift.date, shift));
    },
  );

  // Descuentos por promoción of the shift, by promotion name.
  app.get(
    '/api/cash-close/promotions',
    { config: { access: ADMIN }, schema: { querystring: CashCloseQuerySchema, response: { 200: PromotionDiscountsResponseSchema } } },
    async (request) => {
      const shift = await resolveShift(ctx, request.query.date);
      return shiftPromotionDiscounts(ctx.db.db, shiftInterval(shift.date, shift), shift.date);
    },
  );

  app.get(
    '/api/cash-close/export.csv',
    { config: { access: ADMIN }, schema: { querystring: CashCloseQuerySchema } },
    async (request, reply) => {
      const shift = await resolveShift(ctx, request.query.date);
      const csv = await shiftCsv(ctx.db.db, shiftInterval(shift.date, shift), shift.timezone);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="cierre-de-caja-${shift.date}.csv"`)
        .send(csv);
    },
  );
};
