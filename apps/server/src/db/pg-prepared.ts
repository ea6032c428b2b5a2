import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';

/**
 * PostgreSQL: the server's statements as named prepared statements.
 *
 * Kysely sends every query as an unnamed statement, so PostgreSQL parses and analyses the same few
 * SQL texts again on every request. `pg` prepares a statement given a name once per connection and
 * afterwards sends only its parameters (Bind/Execute). The names come from one process-wide table
 * of SQL texts: a text is named on its second use, and past `limit` names (queries whose text varies,
 * such as `in (…)` lists of different lengths) statements go unnamed as before, so no connection
 * keeps an unbounded number of them (decision 0037).
 *
 * Planning is left to PostgreSQL's default (`plan_cache_mode = auto`): custom plans for the first
 * five runs of a statement on a connection, then a generic plan only where it is estimated to cost
 * no more. A statement without parameters (BEGIN, COMMIT) goes unnamed: it is one message anyway.
 */
export interface PreparedNames {
  /** The statement name for a SQL text on its second use, or undefined (first use, or the table is full). */
  nameFor(sql: string): string | undefined;
  /** How many distinct texts have a name. */
  readonly named: number;
}

/**
 * A text gets a name on its second use, so one-off statements (a report's, a migration's) never
 * take a slot; at most `limit` names, and texts seen once are counted only up to `watched`.
 */
export function preparedNames(limit = 256, watched = 4096): PreparedNames {
  const names = new Map<string, string>();
  const seenOnce = new Set<string>();
  return {
    nameFor(sql) {
      const name = names.get(sql);
      if (name !== undefined || names.size >= limit) return name;
      if (!seenOnce.has(sql)) {
        if (seenOnce.size < watched) seenOnce.add(sql);
        return undefined;
      }
      seenOnce.delete(sql);
      // Named by the text's hash: one text has one name, whichever table gave it (pg refuses a
      // name reused for another text on the same connection).
      const given = `comanda_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
      names.set(sql, given);
      return given;
    },
    get named() {
      return names.size;
    },
  };
}

/** The pool Kysely's PostgresDialect sees: clients whose parameterised queries run as named statements. */
export function preparingPool(pool: pg.Pool, names: PreparedNames = preparedNames()): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let wrapped = clients.get(client);
    if (!wrapped) {
      let stale = false;
      wrapped = {
        query: (async (text: unknown, values?: unknown[]) => {
          // Kysely passes (sql, parameters); anything else (a cursor) goes through untouched.
          if (typeof text !== 'string') return client.query(text as pg.Submittable);
          const name = values?.length ? names.nameFor(text) : undefined;
          if (!name) return client.query(text, values);
          try {
            return await client.query({ name, text, values });
          } catch (error) {
            // A migration by another process changed a table under a prepared `select *`: this
            // query fails, and the connection is closed on release so that no later one does.
            if (isStalePlan(error)) stale = true;
            throw error;
          }
        }) as unknown as PostgresPoolClient['query'],
        // A stale connection is destroyed by the pool (release(true)) and never handed out again.
        release: () => client.release(stale || undefined),
      };
      clients.set(client, wrapped);
    }
    return wrapped;
  };
  return {
    connect: async () => wrap(await pool.connect()),
    end: () => pool.end(),
  };
}

/** PostgreSQL's refusal to run a prepared statement whose result columns changed since it was prepared. */
function isStalePlan(error: unknown): boolean {
  return (
    (error as { code?: string } | null)?.code === '0A000' &&
    /cached plan must not change result type/.test(String((error as Error).message))
  );
}
