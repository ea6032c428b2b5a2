import type { FastifyInstance } from 'fastify';
import type { SessionUser } from '@comanda/contract';
import type { Config } from '../config.ts';
import type { Db } from '../db/connect.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { Clock } from './clock.ts';

/**
 * What every feature needs, built once by buildApp and reachable as app.ctx. The services of
 * higher layers add their own field where they are defined (`live`, `pins`, `throttle`), so this
 * layer names none of them.
 */
export interface AppContext {
  config: Config;
  db: Db;
  clock: Clock;
  mailer: Mailer;
  /** Extension point for features that own long-lived services (card payments). */
  services: Map<string, unknown>;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    user: SessionUser | null;
    sessionHash: string | null;
    /** False when `user` is a session remembered, not read (a 'checked-in-statement' route): the write must check it. */
    sessionRead: boolean;
  }
}

export type App = FastifyInstance;

/** The signed-in user of a route that declared an access other than 'public'. */
export function requireUser(user: SessionUser | null): SessionUser {
  if (!user) throw new Error('access policy let an anonymous request through');
  return user;
}
