import { PLAIN_CASE } from '@comanda/domain';
import { literal, type SqlFunction } from './sql-function.ts';

/**
 * The domain's isPlainOrder in SQL: the order open, the caller's to work (comanda_may_work_order),
 * its figures beyond its lines zero (written from PLAIN_CASE), no card attempt in the given states,
 * no payment, no live discount or comp. Read under the caller's lock of the order. PL/pgSQL, not
 * SQL: a SQL function called with a row is parsed and planned again on every call (a third of
 * PostgreSQL's time per add), a PL/pgSQL one keeps its plan for the connection.
 */
export const plainOrderFunction: SqlFunction = {
  name: 'comanda_plain_order',
  text: `CREATE OR REPLACE FUNCTION comanda_plain_order(o orders, p_role text, p_user_id text, p_live_card_states text[])
RETURNS boolean LANGUAGE plpgsql STABLE AS $fn$
BEGIN
  RETURN o.status = ${literal(PLAIN_CASE.orderStatus)}
    AND comanda_may_work_order(p_role, p_user_id, o.waiter_id)
    AND ${PLAIN_CASE.zeroFigures.map((c) => `o.${c} = 0`).join(' AND ')}
    AND NOT EXISTS (SELECT 1 FROM card_payments WHERE order_id = o.id AND state = ANY (p_live_card_states))
    AND NOT EXISTS (SELECT 1 FROM payments WHERE order_id = o.id)
    AND NOT EXISTS (SELECT 1 FROM order_adjustments WHERE order_id = o.id AND removed_at IS NULL);
END
$fn$`,
};
