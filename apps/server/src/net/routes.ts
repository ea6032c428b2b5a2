import { X509Certificate } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DevicesInfoSchema, type DeviceAddress } from '@comanda/contract';
import { ADMIN } from '../http/access.ts';
import { notFound } from '../http/errors.ts';
import { getGeneralConfig } from '../model/config-store.ts';
import { lanIPv4, listenUrls, listensOnNetwork, machineHostName } from './addresses.ts';
import { netState } from './https.ts';
import { qrSvg } from './qr-svg.ts';

export const CA_PATH = '/ca.crt';

/** Icons of the installable app (files in apps/web/public/icons). */
const ICONS = [
  { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
  { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
  { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
];

/** Connecting devices: their addresses with QR codes, the local CA download, the web app manifest. */
export const netRoutes: FastifyPluginAsync = async (base) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.get('/api/devices', { config: { access: ADMIN }, schema: { response: { 200: DevicesInfoSchema } } }, async () => {
    const httpPort = (app.server.address() as AddressInfo | null)?.port ?? ctx.config.PORT;
    const net = netState(ctx);
    const lan = lanIPv4();
    const urls = [
      ...listenUrls('http', ctx.config.HOST, httpPort, lan).map((u) => ({ ...u, secure: false })),
      ...(net ? listenUrls('https', ctx.config.HOST, net.httpsPort, lan).map((u) => ({ ...u, secure: true })) : []),
    ];
    const addresses: DeviceAddress[] = await Promise.all(urls.map(async (u) => ({ ...u, qrSvg: await qrSvg(u.url) })));
    return {
      hostName: machineHostName(),
      addresses,
      listensOnNetwork: listensOnNetwork(ctx.config.HOST),
      https: {
        enabled: net !== null,
        port: net?.httpsPort ?? null,
        caPath: net ? CA_PATH : null,
        caFingerprint: net?.tls.caFingerprint ?? null,
        certificateExpiresAt: net?.tls.notAfter ?? null,
      },
    };
  });

  // Public on purpose: a certificate is public data, and phones fetch it before they can sign in.
  app.get(CA_PATH, { schema: { hide: true } }, async (_request, reply) => {
    const net = netState(ctx);
    if (!net) throw notFound('HTTPS no está activado');
    return reply
      .header('content-type', 'application/x-x509-ca-cert')
      .header('cache-control', 'no-cache')
      .send(new X509Certificate(net.tls.caPem).raw);
  });

  // Served by the server so the installed app carries the business name from Configuración.
  app.get('/manifest.webmanifest', { schema: { hide: true } }, async (_request, reply) => {
    const { name } = await getGeneralConfig(ctx.db.db);
    const appName = name.trim() || 'Comanda';
    return reply
      .header('content-type', 'application/manifest+json; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(
        JSON.stringify({
          id: '/',
          name: appName,
          short_name: appName.length <= 12 ? appName : 'Comanda',
          description: 'Punto de venta para bares y restaurantes',
          lang: 'es-MX',
          dir: 'ltr',
          start_url: '/',
          scope: '/',
          display: 'standalone',
          orientation: 'any',
          background_color: '#f8fafc',
          theme_color: '#0f172a',
          icons: ICONS,
        }),
      );
  });
};
