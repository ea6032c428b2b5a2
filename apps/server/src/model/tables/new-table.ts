import type { Insertable } from 'kysely';
import type { TablesTable } from '../../db/schema.ts';
import { newId } from '../../http/ids.ts';

/** A new table: free, no waiter, no order. The admin's "Agregar mesa", the first start's layout and test data alike. */
export function newTableRow(number: number, now: number) {
  return {
    id: newId(),
    number,
    status: 'libre' as const,
    waiter_id: null,
    waiter_name: null,
    current_order_id: null,
    created_at: now,
    updated_at: now,
  } satisfies Insertable<TablesTable>;
}
