import type { Table } from '@comanda/contract';

/**
 * What the whole table owes (before tips) across its open checks — the order it links and its
 * other checks (separate checks, equal shares: decisions 0014, 0022) — and how many there are.
 * Each check's `total` is what the server says it owes (discounts, comps and shares applied).
 */
export function tableTotal(table: Pick<Table, 'order' | 'extraOrders'>): { total: number; checks: number } {
  const orders = [...(table.order ? [table.order] : []), ...(table.extraOrders ?? [])];
  return { total: orders.reduce((sum, o) => sum + (o.total ?? o.subtotal), 0), checks: orders.length };
}
