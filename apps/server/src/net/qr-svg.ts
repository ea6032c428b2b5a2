/** A QR code as SVG markup, drawn once per text (the connect screen's addresses, a ticket's self-invoice page). */
const qrCache = new Map<string, string>();

const importEncoder = () => import('qrcode');
/** The QR encoder, loaded once: not on the server's start path, but soon after it (startQrWarmup). */
let encoder: ReturnType<typeof importEncoder> | null = null;
function loadEncoder() {
  encoder ??= importEncoder().catch((error: unknown) => {
    encoder = null;
    throw error;
  });
  return encoder;
}

/** Where a server keeps its warm-up timer (its context's services), so each server stops its own. */
const WARMUP = 'qr-warmup';
type Services = { services: Map<string, unknown> };

/**
 * Loads the encoder half a second after the start, in the background: the first ticket with a
 * self-invoice QR otherwise waited ~30 ms for the module (a night's worst ticket read, 44–51 ms).
 */
export function startQrWarmup(ctx: Services): Promise<void> {
  if (!ctx.services.has(WARMUP)) ctx.services.set(WARMUP, setTimeout(() => void loadEncoder().catch(() => undefined), 500).unref());
  return Promise.resolve();
}

export function stopQrWarmup(ctx: Services): Promise<void> {
  const timer = ctx.services.get(WARMUP) as NodeJS.Timeout | undefined;
  if (timer) clearTimeout(timer);
  ctx.services.delete(WARMUP);
  return Promise.resolve();
}

export async function qrSvg(text: string): Promise<string> {
  let svg = qrCache.get(text);
  if (!svg) {
    const { default: QRCode } = await loadEncoder();
    svg = await QRCode.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M', color: { dark: '#0f172a', light: '#ffffff' } });
    if (qrCache.size > 64) qrCache.clear();
    qrCache.set(text, svg);
  }
  return svg;
}
