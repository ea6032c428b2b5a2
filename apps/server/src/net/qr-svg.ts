/** A QR code as SVG markup, drawn once per text (the connect screen's addresses, a ticket's self-invoice page). */
const qrCache = new Map<string, string>();

const importEncoder = () => import('qrcode');
const SVG_OPTIONS = { type: 'svg', margin: 1, errorCorrectionLevel: 'M', color: { dark: '#0f172a', light: '#ffffff' } } as const;
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
 * Loads the encoder half a second after the start, in the background, and draws a few throwaway
 * codes: the first ticket with a self-invoice QR otherwise waited ~30 ms for the module, and a
 * process's first codes take 10–23 ms each on the event loop (a warm one 1–2 ms), holding up every
 * request that arrives meanwhile.
 */
export function startQrWarmup(ctx: Services): Promise<void> {
  if (!ctx.services.has(WARMUP)) ctx.services.set(WARMUP, setTimeout(() => void warmEncoder().catch(() => undefined), 500).unref());
  return Promise.resolve();
}

/** A text as long as a ticket's self-invoice address, so the warm-up draws codes of the same size. */
const warmText = (i: number) => `http://192.168.1.20:3000/factura/${'0'.repeat(36)}?t=${String(i).padStart(22, '0')}`;

/** One code drawn as SVG, uncached: the warm-up's and qrSvg's one way to draw. */
async function draw(text: string): Promise<string> {
  const { default: QRCode } = await loadEncoder();
  return QRCode.toString(text, SVG_OPTIONS);
}

/** Draws `codes` throwaway codes (not cached), one per turn of the event loop; how many were drawn. */
export async function warmEncoder(codes = 5): Promise<number> {
  let drawn = 0;
  for (let i = 0; i < codes; i++) {
    if ((await draw(warmText(i))).startsWith('<svg')) drawn++;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return drawn;
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
    svg = await draw(text);
    if (qrCache.size > 64) qrCache.clear();
    qrCache.set(text, svg);
  }
  return svg;
}
