import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';

/** What a store or rule runs its statements on: the mutation's transaction, or the database itself for a read. */
export type Trx = Transaction<Database> | Kysely<Database>;
