/**
 * Who works which order (SPEC §6): an admin every order, a waiter the orders of the tables they
 * opened; kitchen and bar staff none. The server's checks, the live topics, the one-statement
 * writes' SQL (db/functions) and the web's table targets all read these.
 */
export const ORDER_ROLES = {
  /** Roles that work every order. */
  everyOrder: ['admin'],
  /** Roles that work the orders they opened. */
  ownOrders: ['waiter'],
} as const satisfies Record<string, readonly string[]>;

const EVERY: readonly string[] = ORDER_ROLES.everyOrder;
const OWN: readonly string[] = ORDER_ROLES.ownOrders;

/** Whether the role works every order, whoever opened it (an admin). */
export function mayWorkEveryOrder(role: string | null | undefined): boolean {
  return role != null && EVERY.includes(role);
}

/** Whether the role takes orders at all (an admin or a waiter). */
export function takesOrders(role: string | null | undefined): boolean {
  return mayWorkEveryOrder(role) || (role != null && OWN.includes(role));
}

/** Whether the user may work an order opened by `waiterId` (null: nobody's). */
export function mayWorkOrder(user: { id: string; role: string }, waiterId: string | null | undefined): boolean {
  return mayWorkEveryOrder(user.role) || (OWN.includes(user.role) && waiterId != null && waiterId === user.id);
}
