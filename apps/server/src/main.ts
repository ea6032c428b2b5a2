import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { ConfigError, configWarnings, loadConfig, proxyTrustRefusal } from './config.ts';
import { createServer } from './server.ts';
import { demoAccountsText, isEmpty, seedDemo } from './seed/seed.ts';
import { startHttps, type HttpsListener } from './net/https.ts';
import { announceAddresses } from './net/announce.ts';
import { NewerDatabaseError } from './db/migrate.ts';
import { acquireServerLock } from './ops/server-lock.ts';
import { checkDataFolders, DataFolderError, explainDataFolder } from './ops/data-folder.ts';

const webDist = process.env.WEB_DIST ?? resolve(fileURLToPath(new URL('.', import.meta.url)), '../../web/dist');

async function main(): Promise<void> {
  const config = loadConfig();
  const proxyRefused = proxyTrustRefusal(config);
  if (proxyRefused) throw new ConfigError(proxyRefused);
  for (const warning of configWarnings()) console.warn(warning);
  // Every folder the server writes to takes a file, or the start stops saying why (in Spanish).
  const sqliteFile = config.DATABASE_URL.startsWith('sqlite:') ? config.DATABASE_URL.slice('sqlite:'.length) : ':memory:';
  const sqliteDir = sqliteFile === ':memory:' ? [] : [dirname(sqliteFile)];
  checkDataFolders([config.DATA_DIR, ...sqliteDir]);
  // DATA_DIR/comanda.pid: `restore` refuses while this process runs (SQLite only; PostgreSQL runs side by side).
  const releaseLock = config.DATABASE_URL.startsWith('sqlite:')
    ? (() => {
        try {
          return acquireServerLock(config.DATA_DIR, config.DATABASE_URL, Date.now());
        } catch (error) {
          throw new ConfigError((error as Error).message);
        }
      })()
    : () => undefined;
  process.once('exit', releaseLock);
  const server = await createServer({ config, webDist, logger: true }).catch((error: unknown) => {
    throw explainDataFolder(error, sqliteDir[0] ?? config.DATA_DIR) ?? error;
  });
  if (config.DEMO_DATA === 'auto' && (await isEmpty(server.ctx))) {
    await seedDemo(server.ctx);
    console.log('Base de datos nueva: se cargaron datos de demostración.');
  }
  if (config.DEMO_DATA === 'auto') console.log(demoAccountsText());
  await server.app.listen({ port: config.PORT, host: config.HOST });
  const httpPort = (server.app.server.address() as { port: number }).port;
  let https: HttpsListener | null = null;
  if (config.HTTPS === 'on') {
    try {
      https = await startHttps(server.app, { port: config.HTTPS_PORT, host: config.HOST, log: (line) => console.log(line) });
    } catch (error) {
      await server.close();
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new ConfigError(`HTTPS_PORT: no se pudo abrir HTTPS en el puerto ${config.HTTPS_PORT} (${code})`);
    }
    const tls = https.material();
    if (tls.outcome === 'created') console.log('Se creó la autoridad de certificación local (DATA_DIR/tls).');
    console.log(`HTTPS activo; el certificado cubre: ${[...tls.names.dns, ...tls.names.ips].join(', ')}`);
  }
  console.log(`Comanda escuchando en http://localhost:${httpPort} (base de datos: ${server.ctx.db.kind})`);
  await announceAddresses({
    host: config.HOST,
    httpPort,
    httpsPort: https?.port ?? null,
    log: (text) => console.log(text),
  });
  // SIGTERM (systemctl stop/restart): finish in-flight requests, tell live sockets to reconnect, close the database.
  const stop = async () => {
    console.log('Deteniendo Comanda: se terminan las solicitudes en curso…');
    server.ctx.live.closeSockets(); // 1012: browsers reconnect to the restarted server
    await server.drain(3000);
    await https?.close();
    await server.close();
    releaseLock();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  const plain = error instanceof ConfigError || error instanceof NewerDatabaseError || error instanceof DataFolderError;
  console.error(plain ? error.message : error);
  process.exit(1);
});
