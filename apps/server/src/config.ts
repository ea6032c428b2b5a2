import { isIP } from 'node:net';
import { z } from 'zod';
import { isLocalPrinterHost, isLoopbackHost, PRINTER_HOST_NOT_LOCAL, PRINTER_PORT_NOT_ALLOWED, PRINTER_PORTS } from '@comanda/domain';

/** proxy-addr's names for private ranges, accepted in a TRUST_PROXY list. */
const PROXY_PRESETS = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyEntry(entry: string): boolean {
  if (PROXY_PRESETS.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Which proxies may set X-Forwarded-For, so that request.ip (used by the sign-in and PIN
 * throttles and the audit log) is the client's address and not one the client chose:
 * 'false' (default: no proxy, the socket address), a hop count ('1' = one reverse proxy in
 * front), or a comma list of proxy addresses/CIDRs ('10.0.0.5, 192.168.0.0/16', 'loopback').
 * 'true' means one hop, and the server warns at start (it is refused on a non-loopback HOST).
 */
export type TrustProxy = false | number | string[];
export const TRUST_PROXY_TRUE_WARNING =
  'TRUST_PROXY=true se interpreta como 1 (un proxy inverso delante). Indica el número de proxies o sus direcciones para quitar este aviso.';

const TrustProxySchema = z
  .string()
  .default('false')
  .transform((raw, context): TrustProxy => {
    const value = raw.trim().toLowerCase();
    if (value === 'false' || value === '0') return false;
    if (value === 'true') return 1;
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops <= 20) return hops;
    } else {
      const entries = value
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean);
      if (entries.length && entries.every(isProxyEntry)) return entries;
    }
    context.addIssue({
      code: 'custom',
      message: "debe ser 'false', un número de proxies (1-20) o una lista de direcciones/CIDR de proxies separadas por comas",
    });
    return z.NEVER;
  });

/** '1h', '30m', '90s' or 'off' → milliseconds (null = off). At least one minute. */
const BackupEverySchema = z
  .string()
  .default('1h')
  .transform((raw, context): number | null => {
    const value = raw.trim().toLowerCase();
    if (value === 'off' || value === '0') return null;
    const match = /^(\d+)\s*(s|m|h|d)$/.exec(value);
    const ms = match ? Number(match[1]) * { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 's' | 'm' | 'h' | 'd'] : NaN;
    if (ms >= 60_000 && ms <= 7 * 86_400_000) return ms;
    context.addIssue({ code: 'custom', message: "debe ser un intervalo como '1h' o '30m' (entre 1 minuto y 7 días) u 'off'" });
    return z.NEVER;
  });

/** The host and port of each PRINTERS entry (port 9100 when not given); none for an unset or malformed list. */
function printersEnvEntries(value: string | undefined): { host: string; port: number }[] {
  return (value ?? '').split(',').flatMap((entry) => {
    const match = /=tcp:\/\/([^\s:/]+)(?::(\d{1,5}))?/.exec(entry);
    return match ? [{ host: match[1]!, port: match[2] ? Number(match[2]) : 9100 }] : [];
  });
}

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .default('sqlite:data/pos.db')
    .refine((v) => /^(sqlite:|postgres(ql)?:\/\/)/.test(v), 'debe empezar con sqlite: o postgres://'),
  DATA_DIR: z.string().default('data'),
  SESSION_SECRET: z.string().min(16).optional(),
  PIN_SECRET: z.string().min(16).optional(),
  PUBLIC_URL: z.string().url().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Comanda <no-reply@comanda.local>'),
  MP_ACCESS_TOKEN: z.string().optional(),
  MP_BASE_URL: z.string().url().optional(),
  MP_API: z.enum(['orders', 'point']).default('point'),
  MP_WEBHOOK_SECRET: z.string().optional(),
  /** Card polling interval (default 5000 as SPEC §9 says); tests and e2e shorten it. */
  MP_POLL_MS: z.coerce.number().int().min(1).max(60_000).optional(),
  /** Demo simulator: fixed port (default ephemeral) and how long until it approves (default 3000). */
  MP_SIMULATOR_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  MP_DEMO_APPROVE_MS: z.coerce.number().int().min(0).max(600_000).optional(),
  /** Facturapi's secret key (sk_live_… or sk_test_…); also read from DATA_DIR/facturapi.key. Without it the PAC simulator runs. */
  FACTURAPI_KEY: z
    .string()
    .optional()
    .refine(
      (v) => !v || /^sk_(live|test)_[A-Za-z0-9_]+$/.test(v.trim()),
      'debe ser una llave secreta de Facturapi (sk_live_… o sk_test_…)',
    ),
  FACTURAPI_BASE_URL: z.string().url().optional(),
  /** PAC simulator (only without FACTURAPI_KEY): fixed port (default: any free port). */
  FACTURAPI_SIMULATOR_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Receipts' queue: first retry delay and its cap (exponential back-off) while the PAC is down. */
  INVOICING_RETRY_MS: z.coerce.number().int().min(10).max(600_000).default(2000),
  INVOICING_RETRY_MAX_MS: z.coerce.number().int().min(10).max(3_600_000).default(300_000),
  /** A PAC call taking longer is abandoned (and retried: the PAC's idempotency keeps one receipt). */
  INVOICING_TIMEOUT_MS: z.coerce.number().int().min(50).max(120_000).default(20_000),
  BUSINESS_TIMEZONE: z.string().default('America/Mexico_City'),
  DEMO_DATA: z.enum(['auto', 'off']).default('auto'),
  SECURE_COOKIES: z.enum(['auto', 'true', 'false']).default('auto'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: TrustProxySchema,
  /** 'on' also serves HTTPS on HTTPS_PORT with a certificate from a local CA kept in DATA_DIR/tls. */
  HTTPS: z.enum(['on', 'off']).default('off'),
  HTTPS_PORT: z.coerce.number().int().min(0).max(65535).default(3443),
  /** Scheduled SQLite backups (ops/backup-schedule.ts): folder (default DATA_DIR/backups) and interval ('1h', '30m', 'off'). */
  BACKUP_DIR: z.string().optional(),
  BACKUP_EVERY: BackupEverySchema,
  /** Network printers provisioned at start: 'cocina=tcp://192.168.1.50:9100,barra=tcp://…,caja=tcp://…'. */
  PRINTERS: z
    .string()
    .optional()
    .refine(
      (v) => v === undefined || v.split(',').every((e) => /^\s*(cocina|barra|caja)=tcp:\/\/[^\s:/]+(:\d{1,5})?\/?\s*$/.test(e)),
      "debe ser una lista 'cocina=tcp://host:puerto,barra=tcp://host:puerto,caja=tcp://host:puerto'",
    )
    // Loopback is allowed here only: a printer emulator or bridge on this machine, set by whoever starts the server.
    .refine((v) => printersEnvEntries(v).every(({ host }) => isLoopbackHost(host) || isLocalPrinterHost(host)), PRINTER_HOST_NOT_LOCAL)
    .refine(
      (v) => printersEnvEntries(v).every(({ host, port }) => isLoopbackHost(host) || PRINTER_PORTS.includes(port)),
      PRINTER_PORT_NOT_ALLOWED,
    ),
  /** Loopback printer emulators (cocina, barra, caja): default on in demo mode without PRINTERS. */
  PRINTER_EMULATOR: z.enum(['on', 'off']).optional(),
  /** Print delivery: first retry delay, its cap (exponential back-off), socket timeout, alert after. */
  PRINT_RETRY_MS: z.coerce.number().int().min(10).max(600_000).default(2000),
  PRINT_RETRY_MAX_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  PRINT_TIMEOUT_MS: z.coerce.number().int().min(50).max(120_000).default(5000),
  /**
   * 'on' in the test suites: every answer is checked against its route's response schema (http/serializer.ts),
   * and a keyed write answered without claiming its key is refused (http/idempotent-routes.ts).
   */
  CHECK_RESPONSES: z.enum(['on', 'off']).default('off'),
  PRINT_ALERT_MS: z.coerce.number().int().min(100).max(3_600_000).default(120_000),
});

export type Config = z.infer<typeof EnvSchema>;

export class ConfigError extends Error {}

/** Reads the environment once at start; a bad variable stops the server with its name. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable (as in a copied .env.example) means "not set", not an invalid value.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Configuración inválida en el entorno:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/** Start-up warnings about accepted but discouraged settings, for the server log. */
export function configWarnings(env: NodeJS.ProcessEnv = process.env): string[] {
  return env.TRUST_PROXY?.trim().toLowerCase() === 'true' ? [TRUST_PROXY_TRUE_WARNING] : [];
}

/** Whether HOST keeps the server to this machine (127.0.0.0/8, ::1, localhost). */
function loopbackOnly(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || (isIP(h) === 4 && h.startsWith('127.'));
}

/**
 * TRUST_PROXY=true on a server reachable beyond this machine lets any device on the network send
 * X-Forwarded-For: 127.0.0.1 (and read /metrics) or any address it likes: the start refuses it.
 */
export function proxyTrustRefusal(config: Pick<Config, 'HOST'>, env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.TRUST_PROXY?.trim().toLowerCase() !== 'true' || loopbackOnly(config.HOST)) return null;
  return (
    `TRUST_PROXY=true no se permite con HOST=${config.HOST}: cualquier equipo de la red podría hacerse pasar por otra ` +
    'dirección (incluso 127.0.0.1, y leer /metrics). Indica la dirección del proxy (por ejemplo TRUST_PROXY=192.168.1.20, ' +
    'o TRUST_PROXY=127.0.0.1 si corre en esta máquina), o el número de proxies (TRUST_PROXY=1) solo si el servidor no se ' +
    'alcanza más que a través de ellos (HOST=127.0.0.1).'
  );
}

export function databaseKind(url: string): 'sqlite' | 'postgres' {
  return url.startsWith('sqlite:') ? 'sqlite' : 'postgres';
}
