import { ORDER_ROLES } from '@comanda/domain';
import { textArray, type SqlFunction } from './sql-function.ts';

/** The domain's mayWorkOrder in SQL, its roles written from ORDER_ROLES: an admin every order, a waiter their own. */
export const mayWorkOrderFunction: SqlFunction = {
  name: 'comanda_may_work_order',
  text: `CREATE OR REPLACE FUNCTION comanda_may_work_order(p_role text, p_user_id text, p_waiter_id text)
RETURNS boolean LANGUAGE sql IMMUTABLE AS $fn$
  SELECT p_role = ANY (${textArray(ORDER_ROLES.everyOrder)})
    OR (p_role = ANY (${textArray(ORDER_ROLES.ownOrders)}) AND p_waiter_id IS NOT NULL AND p_waiter_id = p_user_id)
$fn$`,
};
