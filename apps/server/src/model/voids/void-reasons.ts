import { DEFAULT_VOID_REASONS } from '@comanda/domain';
import type { Trx } from '../../http/transaction.ts';
import { readConfig, writeConfig } from '../config-store.ts';

const KEY = 'void_reasons';

/** The reasons a void or a cancelled order may give (Configuración); the defaults until the admin edits them. */
export async function getVoidReasons(db: Trx): Promise<string[]> {
  const stored = await readConfig<string[]>(db, KEY);
  return Array.isArray(stored) && stored.length > 0 ? stored : [...DEFAULT_VOID_REASONS];
}

export async function saveVoidReasons(db: Trx, reasons: readonly string[], now: number): Promise<void> {
  await writeConfig(db, KEY, reasons, now);
}

/** The listed reason as the admin wrote it (matched without case), or null when it is not on the list. */
export async function matchVoidReason(db: Trx, reason: string): Promise<string | null> {
  const wanted = reason.trim().toLocaleLowerCase('es-MX');
  return (await getVoidReasons(db)).find((r) => r.toLocaleLowerCase('es-MX') === wanted) ?? null;
}
