import { cents, type Cents } from '@comanda/domain';

/** What a SQL aggregate gives back: a number on SQLite, a string for PostgreSQL's bigint/numeric, null over no rows. */
export type Numeric = number | string | null;

/** A count or a sum of units; no rows count as 0. */
export const toCount = (v: Numeric | undefined): number => (v == null ? 0 : Number(v));

/** A sum of centavos, branded; no rows sum to 0. */
export const toCents = (v: Numeric | undefined): Cents => cents(toCount(v));
