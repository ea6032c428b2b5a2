import { PNG } from 'pngjs';

/** The business logo decoded to RGBA pixels, ready for the encoder's raster image command. */
export interface LogoImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Bigger logos are refused rather than decoded on every receipt (a data URL this size is unusual). */
const MAX_DATA_URL = 64 * 1024;
const PNG_DATA_URL = /^data:image\/png;base64,([A-Za-z0-9+/=\s]+)$/;

/**
 * The logo a thermal printer can print: a data: URL of a PNG (what Configuración stores when an
 * image is pasted). Anything else (an https URL, an SVG, a broken file) is not printable here and
 * the receipt prints without it; `reason` says why, for a single log line.
 */
export function decodeLogo(url: string): { image: LogoImage } | { image: null; reason: string | null } {
  const trimmed = url.trim();
  if (trimmed === '') return { image: null, reason: null };
  if (trimmed.length > MAX_DATA_URL) return { image: null, reason: 'logo demasiado grande para imprimir' };
  const match = PNG_DATA_URL.exec(trimmed);
  if (!match) return { image: null, reason: 'el logo no es una imagen PNG en data: URL; los tickets se imprimen sin logo' };
  try {
    const png = PNG.sync.read(Buffer.from(match[1]!, 'base64'));
    return { image: { width: png.width, height: png.height, data: new Uint8Array(png.data) } };
  } catch (error) {
    return { image: null, reason: `el logo PNG no se pudo leer: ${String(error)}` };
  }
}

/**
 * Caches the decoded logo by URL and logs once per URL that cannot be printed, so a receipt
 * never fails and the log is not flooded.
 */
export class LogoCache {
  private url: string | null = null;
  private image: LogoImage | null = null;

  constructor(private readonly warn: (message: string) => void) {}

  get(url: string): LogoImage | null {
    if (url === this.url) return this.image;
    this.url = url;
    const decoded = decodeLogo(url);
    this.image = decoded.image;
    if (!decoded.image && decoded.reason) this.warn(decoded.reason);
    return this.image;
  }
}
