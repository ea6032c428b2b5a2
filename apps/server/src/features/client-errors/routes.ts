import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ClientErrorBodySchema } from '@comanda/contract';
import { tooManyRequests } from '../../http/errors.ts';

/** Crash reports per browser: a session (or an anonymous address) and a cap per address for a whole bar behind one router. */
export const CLIENT_ERROR_LIMITS = {
  perSource: { limit: 10, windowMs: 60_000 },
  perAddress: { limit: 60, windowMs: 60_000 },
};

/** Only the path is kept: a query string can carry a one-time token (/reset-password?token=…). */
function pathOnly(url: string): string {
  try {
    return new URL(url, 'http://x').pathname.slice(0, 300);
  } catch {
    return '(url inválida)';
  }
}

export const clientErrorRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  // A screen crashed in a browser: the error page reports it here so it reaches the server's log.
  // Anyone may send one (the login screen can crash too); nothing is stored, only logged, and rate-limited.
  app.post(
    '/api/client-errors',
    { config: { access: 'public' }, bodyLimit: 16 * 1024, schema: { body: ClientErrorBodySchema } },
    async (request, reply) => {
      const sourceKey = request.sessionHash ? `client-error:session:${request.sessionHash}` : `client-error:ip:${request.ip}`;
      const addressKey = `client-error:address:${request.ip}`;
      const { perSource, perAddress } = CLIENT_ERROR_LIMITS;
      // Counted first (shared by every server process), taken back when over a limit.
      const hit = await ctx.throttle.hit([
        [sourceKey, perSource.windowMs],
        [addressKey, perAddress.windowMs],
      ]);
      if (hit.counts[0]! > perSource.limit || hit.counts[1]! > perAddress.limit) {
        await ctx.throttle.refund(hit.batch);
        throw tooManyRequests('Demasiados reportes de error. Intenta más tarde');
      }
      const { message, stack, url, userAgent } = request.body;
      request.log.warn(
        {
          clientError: { message, stack, path: pathOnly(url), userAgent },
          user: request.user ? { id: request.user.id, role: request.user.role } : null,
          ip: request.ip,
        },
        'client error',
      );
      return reply.code(204).send();
    },
  );
};
