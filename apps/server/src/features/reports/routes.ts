import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ReportsExportQuerySchema, ReportsQuerySchema, ReportsResponseSchema } from '@comanda/contract';
import { ADMIN } from '../../http/access.ts';
import { ownerReports, resolveRange } from './reports.query.ts';
import { exportName, reportSheets } from './report-sheets.ts';
import { reportsCsv } from './export-csv.ts';
import { reportsXlsx } from './export-xlsx.ts';

/** Reportes: admin only; the business days and time zone are the server's. */
export const reportsRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.get(
    '/api/reports',
    { config: { access: ADMIN }, schema: { querystring: ReportsQuerySchema, response: { 200: ReportsResponseSchema } } },
    async (request) => ownerReports(ctx.db.db, await resolveRange(ctx, request.query.from, request.query.to)),
  );

  app.get(
    '/api/reports/export.csv',
    { config: { access: ADMIN }, schema: { querystring: ReportsExportQuerySchema } },
    async (request, reply) => {
      const kind = request.query.report ?? 'todos';
      const report = await ownerReports(ctx.db.db, await resolveRange(ctx, request.query.from, request.query.to));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${exportName(report, kind)}.csv"`)
        .send(reportsCsv(report, reportSheets(report, kind)));
    },
  );

  app.get(
    '/api/reports/export.xlsx',
    { config: { access: ADMIN }, schema: { querystring: ReportsExportQuerySchema } },
    async (request, reply) => {
      const kind = request.query.report ?? 'todos';
      const report = await ownerReports(ctx.db.db, await resolveRange(ctx, request.query.from, request.query.to));
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="${exportName(report, kind)}.xlsx"`)
        .send(await reportsXlsx(report, reportSheets(report, kind)));
    },
  );
};
