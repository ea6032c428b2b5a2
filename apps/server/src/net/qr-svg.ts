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

let warming: NodeJS.Timeout | null = null;
/**
 * Loads the encoder half a second after the start, in the background: the first ticket with a
 * self-invoice QR otherwise waited ~30 ms for the module (a night's worst ticket read, 44–51 ms).
 */
export function startQrWarmup(): Promise<void> {
  warming ??= setTimeout(() => void loadEncoder().catch(() => undefined), 500).unref();
  return Promise.resolve();
}

export function stopQrWarmup(): Promise<void> {
  if (warming) clearTimeout(warming);
  warming = null;
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
