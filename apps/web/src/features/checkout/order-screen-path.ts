import type { Order } from '@comanda/contract';

/**
 * The table's order screen, with this check selected when it is one of several open orders of
 * the table (separate checks, equal shares, bar tabs: `?cuenta=`, decisions 0014 and 0022).
 */
export function orderScreenPath(base: string, order: Pick<Order, 'id' | 'tableId' | 'tabName' | 'parentOrderId'>): string {
  const check = order.tabName != null || order.parentOrderId != null;
  return `${base}/order/${order.tableId}${check ? `?cuenta=${order.id}` : ''}`;
}
