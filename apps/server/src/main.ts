import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { ConfigError, configWarnings, loadConfig } from './config.ts';
import { createServer } from './server.ts';
import { demoAccountsText, isEmpty, seedDemo } from './seed/seed.ts';

const webDist = process.env.WEB_DIST ?? resolve(fileURLToPath(new URL('.', import.meta.url)), '../../web/dist');

async function main(): Promise<void> {
  const config = loadConfig();
  for (const warning of configWarnings()) console.warn(warning);
  const server = await createServer({ config, webDist, logger: true });
  if (config.DEMO_DATA === 'auto' && (await isEmpty(server.ctx))) {
    await seedDemo(server.ctx);
    console.log('Base de datos nueva: se cargaron datos de demostración.');
  }
  if (config.DEMO_DATA === 'auto') console.log(demoAccountsText());
  await server.app.listen({ port: config.PORT, host: config.HOST });
  console.log(`Comanda escuchando en http://localhost:${config.PORT} (base de datos: ${server.ctx.db.kind})`);
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
