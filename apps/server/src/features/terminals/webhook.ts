import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../http/context.ts';
import { unauthorized } from '../../http/errors.ts';
import { verifyWebhookSignature } from '../../payments/mercadopago/webhook-signature.ts';
import { cardGateway } from '../../model/card-payments/card-gateway.ts';
import { isLive } from '../../model/card-payments/card-payment-store.ts';

/** The resource id a notification is about: data.id in the query (what is signed), else the body. */
export function notificationId(request: FastifyRequest): string | null {
  const query = request.query as Record<string, unknown>;
  const body = (request.body ?? {}) as { id?: unknown; data?: { id?: unknown } };
  for (const v of [query['data.id'], query.id, body.data?.id, body.id]) {
    if (typeof v === 'string' && v !== '') return v;
    if (typeof v === 'number') return String(v);
  }
  return null;
}

/**
 * A provider notification only tells us which payment to look at: its body is never trusted.
 * We read the payment from the provider and settle it like a poll would, so a double webhook,
 * or a webhook racing the poll, still makes one payment.
 */
export async function handleWebhook(ctx: AppContext, request: FastifyRequest): Promise<void> {
  const dataId = notificationId(request);
  const secret = ctx.config.MP_WEBHOOK_SECRET;
  if (secret) {
    const header = (name: string) => (typeof request.headers[name] === 'string' ? (request.headers[name] as string) : undefined);
    const ok =
      dataId !== null && verifyWebhookSignature({ secret, signature: header('x-signature'), requestId: header('x-request-id'), dataId });
    if (!ok) throw unauthorized('Firma de notificación inválida');
  }
  if (!dataId) return;
  const row = await ctx.db.db.selectFrom('card_payments').select(['id', 'state']).where('provider_id', '=', dataId).executeTakeFirst();
  if (!row || !isLive(row.state)) return;
  await cardGateway(ctx).driver.reconcile(row.id);
}
