import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { newId } from './ids.ts';

export interface AuditEntry {
  actor: { id: string; displayName: string } | null;
  action: string;
  entity: string;
  entityId: string | null;
  authorizedBy?: string | null;
  data?: Record<string, unknown>;
}

/** Append-only record of every change of money or state; written inside the same transaction. */
export async function audit(trx: Kysely<Database>, at: number, entry: AuditEntry): Promise<void> {
  await auditInsert(trx, at, entry).execute();
}

/** The audit entry's INSERT, not yet run: a caller may send it along with another statement (touchOrderRow's riders). */
export function auditInsert(trx: Kysely<Database>, at: number, entry: AuditEntry) {
  return trx.insertInto('audit_log').values({
    id: newId(),
    at,
    actor_id: entry.actor?.id ?? null,
    actor_name: entry.actor?.displayName ?? null,
    authorized_by: entry.authorizedBy ?? null,
    action: entry.action,
    entity: entry.entity,
    entity_id: entry.entityId,
    data: entry.data ? JSON.stringify(entry.data) : null,
  });
}
