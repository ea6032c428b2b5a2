import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Mercado Pago signs a notification with HMAC-SHA256 over the manifest
 * 'id:{data.id};request-id:{x-request-id};ts:{ts};' and sends 'ts=…,v1=…' in x-signature.
 */
export function webhookManifest(dataId: string, requestId: string, ts: string): string {
  // The provider lower-cases alphanumeric ids in the manifest.
  const id = /^[A-Za-z0-9]+$/.test(dataId) ? dataId.toLowerCase() : dataId;
  return `id:${id};request-id:${requestId};ts:${ts};`;
}

export function signWebhook(secret: string, dataId: string, requestId: string, ts: string): string {
  const v1 = createHmac('sha256', secret)
    .update(webhookManifest(dataId, requestId, ts))
    .digest('hex');
  return `ts=${ts},v1=${v1}`;
}

export function verifyWebhookSignature(input: {
  secret: string;
  signature: string | undefined;
  requestId: string | undefined;
  dataId: string;
}): boolean {
  if (!input.signature || !input.requestId) return false;
  const parts = Object.fromEntries(
    input.signature.split(',').map((part) => {
      const [k, ...rest] = part.split('=');
      return [k?.trim() ?? '', rest.join('=').trim()];
    }),
  );
  const ts = parts.ts;
  const v1 = parts.v1;
  if (!ts || !v1 || !/^[0-9a-f]{64}$/i.test(v1)) return false;
  const expected = createHmac('sha256', input.secret)
    .update(webhookManifest(input.dataId, input.requestId, ts))
    .digest();
  return timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}
