import type { SessionUser } from '@comanda/contract';
import type { OrderRow } from '../../db/schema.ts';

/** Admin works every order; a waiter only the orders of the tables they opened (SPEC §6). */
export function mayWorkOrder(user: Pick<SessionUser, 'id' | 'role'>, order: Pick<OrderRow, 'waiter_id'>): boolean {
  return user.role === 'admin' || (user.role === 'waiter' && order.waiter_id === user.id);
}
