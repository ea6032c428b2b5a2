import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/context.ts';
import { lanIPv4, machineHostName } from './addresses.ts';
import { ensureTls, type TlsMaterial } from './local-ca.ts';

/** What the "Conectar dispositivos" view needs to know about the HTTPS side, kept in ctx.services. */
export interface NetState {
  httpsPort: number;
  tls: TlsMaterial;
}
const SERVICE = 'net';

export function netState(ctx: AppContext): NetState | null {
  return (ctx.services.get(SERVICE) as NetState | undefined) ?? null;
}

export interface HttpsOptions {
  port: number;
  host: string;
  /** Defaults to the app's clock; tests pass their own. */
  now?: () => number;
  hostName?: string;
  lanIps?: () => string[];
  /** How often the certificate and the address set are checked while running (default hourly). */
  checkEveryMs?: number;
  leafValidityDays?: number;
  log?: (line: string) => void;
}

export interface HttpsListener {
  port: number;
  server: HttpsServer;
  material(): TlsMaterial;
  /** Re-checks the certificate now: renews it or re-issues it for a changed address set. */
  refresh(): TlsMaterial;
  close(): Promise<void>;
}

/**
 * A second listener, over TLS, in front of the same Fastify app: requests go to the app's
 * router and WebSocket upgrades to the app's own upgrade handling, so /api/live works as wss.
 * Fastify sees request.protocol === 'https' here, so SECURE_COOKIES=auto marks cookies Secure
 * on this port only and plain-HTTP logins keep working on the other.
 */
export async function startHttps(app: FastifyInstance, opts: HttpsOptions): Promise<HttpsListener> {
  const ctx = app.ctx;
  const now = opts.now ?? (() => ctx.clock.now());
  const hostName = opts.hostName ?? machineHostName();
  const lanIps = opts.lanIps ?? lanIPv4;
  const issue = () =>
    ensureTls({ dataDir: ctx.config.DATA_DIR, hostName, lanIps: lanIps(), now: now(), leafValidityDays: opts.leafValidityDays });

  let current = issue();
  await app.ready();
  // The chain sent is the server certificate and the CA (harmless to send, and lets a client pin the CA's key).
  const chain = (tls: TlsMaterial) => `${tls.certPem.trim()}\n${tls.caPem.trim()}\n`;
  const server = createHttpsServer({ key: current.keyPem, cert: chain(current), minVersion: 'TLSv1.2' }, (req, res) =>
    app.routing(req, res),
  );
  server.on('upgrade', (req, socket, head) => app.server.emit('upgrade', req, socket, head));
  server.on('tlsClientError', () => undefined); // phones without the CA yet: not our error to log
  // Upgraded (WebSocket) sockets are not HTTP connections any more: track every socket to end them on close.
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  ctx.services.set(SERVICE, { httpsPort: port, tls: current } satisfies NetState);

  const refresh = () => {
    const next = issue();
    if (next.outcome !== 'kept') {
      server.setSecureContext({ key: next.keyPem, cert: chain(next), minVersion: 'TLSv1.2' });
      opts.log?.('Certificado HTTPS renovado.');
    }
    current = next;
    ctx.services.set(SERVICE, { httpsPort: port, tls: current } satisfies NetState);
    return current;
  };
  const timer = setInterval(
    () => {
      try {
        refresh();
      } catch (error) {
        opts.log?.(`No se pudo renovar el certificado HTTPS: ${String(error)}`);
      }
    },
    opts.checkEveryMs ?? 60 * 60_000,
  );
  timer.unref();

  return {
    port,
    server,
    material: () => current,
    refresh,
    async close() {
      clearInterval(timer);
      ctx.services.delete(SERVICE);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}
