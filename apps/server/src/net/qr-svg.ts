/** A QR code as SVG markup, drawn once per text (the connect screen's addresses, a ticket's self-invoice page). */
const qrCache = new Map<string, string>();

export async function qrSvg(text: string): Promise<string> {
  let svg = qrCache.get(text);
  if (!svg) {
    const { default: QRCode } = await import('qrcode'); // loaded when a screen first asks
    svg = await QRCode.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M', color: { dark: '#0f172a', light: '#ffffff' } });
    if (qrCache.size > 64) qrCache.clear();
    qrCache.set(text, svg);
  }
  return svg;
}
