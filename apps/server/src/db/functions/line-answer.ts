import type { SqlFunction } from './sql-function.ts';

/**
 * The order's figures after a one-line write (no discount, comp or share in the plain case: total =
 * subtotal), its version bumped once, and the write's answer: the order, the line, the jobs written.
 */
export const lineAnswerFunction: SqlFunction = {
  name: 'comanda_line_answer',
  text: `CREATE OR REPLACE FUNCTION comanda_line_answer(p_order_id text, p_subtotal bigint, p_now bigint, it order_items, p_jobs integer)
RETURNS json LANGUAGE plpgsql AS $fn$
DECLARE
  o orders%ROWTYPE;
BEGIN
  UPDATE orders SET subtotal = p_subtotal, total = p_subtotal, version = version + 1, updated_at = p_now
    WHERE id = p_order_id
    RETURNING * INTO o;
  RETURN json_build_object('order', row_to_json(o), 'item', row_to_json(it), 'jobs', p_jobs);
END
$fn$`,
};
