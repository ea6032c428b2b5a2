import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config.ts';
import { PRIVATE_FILE, restrictMode } from '../db/private-files.ts';

/**
 * The PAC's secret key lives outside the database, like the PIN key: FACTURAPI_KEY, otherwise
 * DATA_DIR/facturapi.key (made 0600 when read). Neither the database, its backups nor any answer
 * to a browser ever holds it. Null: no key, the demo simulator runs.
 */
export const PAC_KEY_FILE = 'facturapi.key';

const SHAPE = /^sk_(live|test)_[A-Za-z0-9_]+$/;

export function loadPacKey(opts: { envValue: string | undefined; dataDir: string }): string | null {
  const env = opts.envValue?.trim();
  if (env) return env;
  const file = join(opts.dataDir, PAC_KEY_FILE);
  if (!existsSync(file)) return null;
  restrictMode(file, PRIVATE_FILE);
  const key = readFileSync(file, 'utf8').trim();
  if (!SHAPE.test(key)) throw new ConfigError(`${file} no tiene una llave secreta de Facturapi (sk_live_… o sk_test_…).`);
  return key;
}
