/**
 * Scheduled backups are named by their UTC time (comanda-20261122-213000.db) and rotated:
 * the newest backup of each of the last 48 hours that have one, plus the newest of each of the
 * last 30 days that have one. Everything else (older, or a second one in the same hour) goes.
 */
export const KEEP_HOURLY = 48;
export const KEEP_DAILY = 30;

const NAME = /^comanda-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})\.db$/;

export function backupFileName(at: number): string {
  const iso = new Date(at).toISOString(); // 2026-11-22T21:30:00.000Z
  return `comanda-${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}.db`;
}

/** The time encoded in a scheduled backup's name, or null for any other file. */
export function backupTimeOf(name: string): number | null {
  const m = NAME.exec(name);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
  const at = Date.UTC(y, mo - 1, d, h, mi, s);
  return Number.isNaN(at) ? null : at;
}

/** Which scheduled backups to keep and which to delete (other files are never touched). */
export function planRotation(names: readonly string[]): { keep: string[]; remove: string[] } {
  const dated = names
    .map((name) => ({ name, at: backupTimeOf(name) }))
    .filter((b): b is { name: string; at: number } => b.at !== null)
    .sort((a, b) => b.at - a.at);
  const keep = new Set<string>();
  const newestPer = (bucket: (at: number) => number, limit: number) => {
    const seen = new Set<number>();
    for (const b of dated) {
      const key = bucket(b.at);
      if (seen.has(key)) continue;
      if (seen.size >= limit) break;
      seen.add(key);
      keep.add(b.name);
    }
  };
  newestPer((at) => Math.floor(at / 3_600_000), KEEP_HOURLY);
  newestPer((at) => Math.floor(at / 86_400_000), KEEP_DAILY);
  return {
    keep: dated.filter((b) => keep.has(b.name)).map((b) => b.name),
    remove: dated.filter((b) => !keep.has(b.name)).map((b) => b.name),
  };
}
