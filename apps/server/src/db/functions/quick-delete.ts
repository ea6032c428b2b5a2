import type { SqlFunction } from './sql-function.ts';

/**
 * A delete with the admin's PIN in one round trip (decision 0049). `comanda_quick_delete` does, in
 * one statement, what the TypeScript delete (delete-item.command.ts) does when nothing is unusual:
 * the order's lock and the caller's right to it, the PIN's attempt (`comanda_pin_attempt`, inside
 * this transaction), the key's claim, the line marked deleted, one cancelation slip per enabled
 * printer of the line's station when its comanda was printed, the audit entry and the order's
 * figures. Whenever the delete is not the plain case (the domain's PLAIN_CASE and isPlainDelete) it
 * raises SQLSTATE CMQ01 before anything is kept, and the server runs the TypeScript delete.
 *
 * The order is checked before the PIN is tried, as the TypeScript delete does (a waiter cannot
 * probe PINs through someone else's table). A PIN not accepted ends the statement with the
 * attempt's answer, only its failure counted; the server audits and answers it as verify-pin.ts does.
 */
export const quickDeleteFunction: SqlFunction = {
  name: 'comanda_quick_delete',
  text: `CREATE OR REPLACE FUNCTION comanda_quick_delete(
  p_key text, p_scope text, p_hash text,
  p_order_id text, p_item_id text, p_user_id text, p_user_name text, p_role text,
  p_pin_keys text[], p_pin_windows bigint[], p_pin_limits integer[], p_pin_hash text, p_pin_roles text[],
  p_pin_batch text, p_now bigint, p_audit_id text, p_job_ids text[], p_bar_table integer, p_live_card_states text[]
) RETURNS json LANGUAGE plpgsql AS $fn$
DECLARE
  o orders%ROWTYPE;
  it order_items%ROWTYPE;
  pin record;
  jobs integer := 0;
  line_sum bigint;
BEGIN
  -- The order first, as requireOrderToEdit and lockUnfrozenOrder check it, under its lock.
  SELECT * INTO o FROM orders WHERE id = p_order_id FOR UPDATE;
  IF NOT FOUND OR NOT comanda_plain_order(o, p_role, p_user_id, p_live_card_states) THEN
    RAISE EXCEPTION 'quick delete: not a plain order' USING ERRCODE = 'CMQ01';
  END IF;

  -- The PIN: only an admin's authorises; the caller's own is told apart (verifyPin's ownPinRefused).
  SELECT * INTO pin FROM comanda_pin_attempt(p_pin_keys, p_pin_windows, p_pin_limits, p_pin_hash, p_pin_roles,
    p_user_id, true, p_pin_batch, p_now);
  IF pin.outcome <> 'accepted' THEN
    RETURN json_build_object('pin', pin.outcome, 'counts', to_json(pin.counts));
  END IF;

  IF NOT comanda_claim_key(p_key, p_scope, p_hash, p_now) THEN
    RAISE EXCEPTION 'quick delete: key met again' USING ERRCODE = 'CMQ01';
  END IF;

  UPDATE order_items SET is_deleted = 1, deleted_by = pin.user_id, deleted_by_name = pin.user_name, deleted_at = p_now, updated_at = p_now
    WHERE id = p_item_id AND order_id = p_order_id AND is_deleted = 0
    RETURNING * INTO it;
  IF NOT FOUND THEN RAISE EXCEPTION 'quick delete: no such line' USING ERRCODE = 'CMQ01'; END IF;

  -- Printed (comandaPrintedFor): a cancelation slip per enabled printer of the line's station.
  IF EXISTS (SELECT 1 FROM print_jobs WHERE order_id = p_order_id AND kind IN ('comanda', 'reimpresion')
      AND document LIKE '%"itemId":"' || p_item_id || '"%') THEN
    IF it.modifiers IS NOT NULL THEN RAISE EXCEPTION 'quick delete: a printed line with options' USING ERRCODE = 'CMQ01'; END IF;
    jobs := comanda_station_jobs('cancelacion', it.station, p_order_id, comanda_line_document(o, it, true, p_now, p_bar_table),
      p_job_ids, p_now);
  END IF;

  INSERT INTO audit_log (id, at, actor_id, actor_name, authorized_by, action, entity, entity_id, data)
    VALUES (p_audit_id, p_now, p_user_id, p_user_name, pin.user_id, 'order.item-deleted', 'order', p_order_id,
      '{"itemId":' || to_json(it.id)::text || ',"productId":' || to_json(it.product_id)::text
        || ',"productName":' || to_json(it.product_name)::text || ',"price":' || to_json(it.product_price)::text
        || ',"quantity":' || to_json(it.quantity)::text || ',"status":' || to_json(it.status)::text || '}');

  -- The lines as the delete leaves them, summed once.
  SELECT COALESCE(SUM(product_price * quantity), 0) INTO line_sum FROM order_items WHERE order_id = p_order_id AND is_deleted = 0;
  RETURN comanda_line_answer(p_order_id, line_sum, p_now, it, jobs);
END
$fn$`,
};
