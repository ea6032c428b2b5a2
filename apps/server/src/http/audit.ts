import type { Kysely, Selectable } from 'kysely';
import type { AuditLogTable, Database } from '../db/schema.ts';
import { newId } from './ids.ts';
import { compiledOnce, insertRider, type Rider } from '../db/compiled.ts';

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

/** The row an entry writes: every column of the table but its sequence number. */
type AuditRow = Omit<Selectable<AuditLogTable>, 'seq'>;

const insertAudit = (db: Kysely<Database>, row: AuditRow) => db.insertInto('audit_log').values(row);
// Every column a slot of its own: the statement is one text whatever the entry.
const auditStatement = compiledOnce((db, a: AuditRow) =>
  insertAudit(db, {
    id: a.id,
    at: a.at,
    actor_id: a.actor_id,
    actor_name: a.actor_name,
    authorized_by: a.authorized_by,
    action: a.action,
    entity: a.entity,
    entity_id: a.entity_id,
    data: a.data,
  }),
);

/** The audit entry's INSERT, not yet run: a caller may send it along with another statement (touchOrderRow's riders). */
export function auditInsert(trx: Kysely<Database>, at: number, entry: AuditEntry): Rider {
  const row: AuditRow = {
    id: newId(),
    at,
    actor_id: entry.actor?.id ?? null,
    actor_name: entry.actor?.displayName ?? null,
    authorized_by: entry.authorizedBy ?? null,
    action: entry.action,
    entity: entry.entity,
    entity_id: entry.entityId,
    data: entry.data ? JSON.stringify(entry.data) : null,
  };
  return insertRider(trx, row, insertAudit, auditStatement);
}
