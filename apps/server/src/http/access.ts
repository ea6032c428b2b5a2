import type { Role } from '@comanda/contract';
import { forbidden, unauthorized } from './errors.ts';

/**
 * Every route declares who may call it; a route without a declaration refuses to start
 * (deny by default). 'public' needs no session; 'any' needs any active session.
 */
export type Access = 'public' | 'any' | readonly Role[];

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * 'checked-in-statement' (PostgreSQL): the route's first statement checks the caller's session
     * (comanda_session_ok), so a session this process resolved lately is taken without reading it
     * again; when it does not hold, the route reads it fresh before anything else it does.
     */
    session?: 'checked-in-statement';
  }
}

export const ADMIN: readonly Role[] = ['admin'];
export const STAFF_FLOOR: readonly Role[] = ['admin', 'waiter'];
export const BOARD_ROLES: readonly Role[] = ['admin', 'kitchen', 'barra'];
export const ALL_ROLES: readonly Role[] = ['admin', 'waiter', 'kitchen', 'barra'];

export function isAllowed(access: Access, role: Role | undefined): boolean {
  if (access === 'public') return true;
  if (!role) return false;
  if (access === 'any') return true;
  return access.includes(role);
}

/** Refuses a caller the access does not allow: 401 without a session, 403 with one of another role. */
export function assertAllowed(access: Access, user: { role: Role } | null | undefined): void {
  if (!isAllowed(access, user?.role)) throw user ? forbidden() : unauthorized();
}
