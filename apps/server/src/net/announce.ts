import { listenUrls, lanIPv4 } from './addresses.ts';
import { CA_PATH } from './routes.ts';

export interface AnnounceOptions {
  host: string;
  httpPort: number;
  httpsPort: number | null;
  log: (text: string) => void;
  lanIps?: string[];
  /** QR codes in the terminal (off for tests that only read the lines). */
  qr?: boolean;
}

/** Prints every address the server answers on, with a QR code for each LAN address to open it from a phone. */
export async function announceAddresses(opts: AnnounceOptions): Promise<void> {
  const lan = opts.lanIps ?? lanIPv4();
  const http = listenUrls('http', opts.host, opts.httpPort, lan);
  const https = opts.httpsPort === null ? [] : listenUrls('https', opts.host, opts.httpsPort, lan);
  const lines = ['Comanda está lista. Abre una de estas direcciones:'];
  for (const u of [...http, ...https]) lines.push(`  ${u.url}${u.kind === 'local' ? '  (solo en esta computadora)' : ''}`);
  if (https.length > 0) {
    const caUrl = http.find((u) => u.kind === 'lan')?.url ?? http[0]?.url;
    if (caUrl) lines.push(`Certificado de la autoridad local (instálalo en cada teléfono): ${caUrl}${CA_PATH}`);
  }
  opts.log(lines.join('\n'));
  const lanUrls = [...http, ...https].filter((x) => x.kind === 'lan');
  if (opts.qr === false || lanUrls.length === 0) return;
  const { default: QRCode } = await import('qrcode');
  for (const u of lanUrls) {
    const code = await QRCode.toString(u.url, { type: 'terminal', small: true, errorCorrectionLevel: 'L' });
    opts.log(`${u.url}\n${code}`);
  }
}
