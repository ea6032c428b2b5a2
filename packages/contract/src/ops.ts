import { z } from 'zod';

/** GET /api/backups (admin): the server's scheduled SQLite backups, for Configuración › Respaldos. */
export const BackupStatusSchema = z.object({
  /** 'postgres': the server makes no backups; pg_dump does (docs/install.md). */
  kind: z.enum(['sqlite', 'postgres']),
  enabled: z.boolean(),
  everyMs: z.number().int().nullable(),
  dir: z.string().nullable(),
  last: z.object({ at: z.number().int(), bytes: z.number().int(), file: z.string() }).nullable(),
  /** The last backup is older than twice the interval. */
  stale: z.boolean(),
  lastError: z.string().nullable(),
});
export type BackupStatusInfo = z.infer<typeof BackupStatusSchema>;
