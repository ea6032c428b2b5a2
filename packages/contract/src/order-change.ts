import { z } from 'zod';
import { OrderItemSchema, OrderResponseSchema, OrderSchema, type Order, type OrderItem } from './orders.ts';

/**
 * The light answer of an item write (decision 0029). Adding an item or units and
 * deleting one answer, when the client asks with `Prefer: return=minimal`, with what changed
 * instead of the whole order: the order without its items (its version, totals, balance, payments
 * and adjustments — a handful of rows whatever the order's size) and the item rows the write
 * created or changed. The client patches its cached order with `applyOrderChange`; the result is
 * the order a full read would return. Without the header the routes answer `{ order }` as before,
 * so older clients and scripts keep working. SPEC.md does not fix these answers' shapes.
 */
export const ORDER_CHANGE_PREFER = 'return=minimal';

export const OrderHeaderSchema = OrderSchema.omit({ items: true });
export type OrderHeader = z.infer<typeof OrderHeaderSchema>;

export const OrderChangeSchema = z.object({
  /** The order after the write, without its items. */
  order: OrderHeaderSchema,
  /** The rows the write created or changed (a deleted row comes back with isDeleted true). */
  items: z.array(OrderItemSchema),
});
export type OrderChange = z.infer<typeof OrderChangeSchema>;

export const OrderChangeResponseSchema = z.object({ change: OrderChangeSchema });
export type OrderChangeResponse = z.infer<typeof OrderChangeResponseSchema>;

/** What an item write answers: the change when asked with `Prefer: return=minimal`, else the order. */
export const OrderWriteResponseSchema = z.union([OrderChangeResponseSchema, OrderResponseSchema]);
export type OrderWriteResponse = z.infer<typeof OrderWriteResponseSchema>;

/** True when a Prefer header asks for the light answer. */
export function prefersMinimal(prefer: string | string[] | undefined): boolean {
  const value = Array.isArray(prefer) ? prefer.join(',') : (prefer ?? '');
  return value
    .split(/[,;]/)
    .map((p) => p.trim().toLowerCase())
    .includes(ORDER_CHANGE_PREFER);
}

/** Items keep the server's order: oldest first, ties by id (as the order's read sorts them). */
function byAge(a: OrderItem, b: OrderItem): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The cached order patched with a change: the new header, changed rows replaced in place and new
 * rows added in the server's order. Returns null when the change is for another order.
 */
export function applyOrderChange(order: Order, change: OrderChange): Order | null {
  if (order.id !== change.order.id) return null;
  const changed = new Map(change.items.map((i) => [i.id, i]));
  const items = order.items.map((i) => {
    const next = changed.get(i.id);
    if (!next) return i;
    changed.delete(i.id);
    return next;
  });
  const added = [...changed.values()];
  const last = items[items.length - 1];
  const inOrder = added.every((i) => !last || byAge(last, i) < 0);
  const all = added.length === 0 ? items : inOrder ? [...items, ...added.sort(byAge)] : [...items, ...added].sort(byAge);
  return { ...change.order, items: all };
}
