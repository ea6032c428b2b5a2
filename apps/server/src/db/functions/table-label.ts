import type { SqlFunction } from './sql-function.ts';

/**
 * An order's table as its comandas print it: the tab's name, else tableLabel's "Barra" or "Mesa N"
 * (labels.ts). Only immutable operators (text || text), so PostgreSQL inlines it into its caller's
 * plan; `text || integer` is STABLE and made every call a SQL function run of its own.
 */
export const tableLabelFunction: SqlFunction = {
  name: 'comanda_table_label',
  text: `CREATE OR REPLACE FUNCTION comanda_table_label(p_table_name text, p_table_number integer, p_bar_table integer)
RETURNS text LANGUAGE sql IMMUTABLE AS $fn$
  SELECT COALESCE(p_table_name, CASE WHEN p_table_number = p_bar_table THEN 'Barra' ELSE 'Mesa ' || p_table_number::text END)
$fn$`,
};
