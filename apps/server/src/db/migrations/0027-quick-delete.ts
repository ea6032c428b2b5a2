import { sql, type Kysely } from 'kysely';
import type { DbKind } from '../connect.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema builder needs no row types
type AnyDb = Kysely<any>;

/**
 * PostgreSQL only: a delete with the admin's PIN in one round trip (decision 0049, issue 20 item 1).
 *
 * `comanda_quick_delete` does, in one statement and so in one transaction, what the delete does in
 * TypeScript (delete-item.command.ts) when nothing is unusual: the order's lock and the caller's
 * right to it, the PIN's attempt (`comanda_pin_attempt`, migration 0024, inside this transaction),
 * the key's claim, the line marked deleted, one cancelation slip per enabled printer of the line's
 * station when its comanda was printed, the audit entry and the order's figures. It holds no rule of
 * its own: whenever the delete could be anything but that plain case (the order missing, not activo
 * or not the caller's, a card attempt alive or timed out, payments, adjustments or equal shares, the
 * line missing or deleted already, a printed line with options, the key met again) it raises
 * SQLSTATE CMQ01 before anything is kept, and the server runs the TypeScript delete, which answers.
 *
 * The order is checked before the PIN is tried, as the TypeScript delete checks it first (a waiter
 * cannot probe PINs through someone else's table). A PIN that is not accepted ends the statement
 * with the attempt's answer and nothing else kept: the failure counted on the budgets when it is one
 * ('wrong', with the counts), nothing for 'blocked' and 'own'. The server audits and answers it as
 * verify-pin.ts does. quick-delete.test.ts holds the two deletes to the same rows.
 */
const CREATE = sql`
CREATE OR REPLACE FUNCTION comanda_quick_delete(
  p_key text, p_scope text, p_hash text,
  p_order_id text, p_item_id text, p_user_id text, p_user_name text, p_any_order boolean,
  p_pin_keys text[], p_pin_windows bigint[], p_pin_limits integer[], p_pin_hash text, p_pin_roles text[],
  p_pin_batch text, p_now bigint, p_audit_id text, p_job_ids text[], p_bar_table integer, p_live_card_states text[]
) RETURNS json LANGUAGE plpgsql AS $fn$
DECLARE
  o orders%ROWTYPE;
  it order_items%ROWTYPE;
  pin record;
  printer record;
  jobs integer := 0;
  slip text;
  line_sum bigint;
BEGIN
  -- The order first, as requireOrderToEdit and lockUnfrozenOrder check it, under its lock.
  SELECT * INTO o FROM orders WHERE id = p_order_id FOR UPDATE;
  IF NOT FOUND OR o.status <> 'activo' THEN RAISE EXCEPTION 'quick delete: order not activo' USING ERRCODE = 'CMQ01'; END IF;
  IF NOT (p_any_order OR o.waiter_id = p_user_id) THEN
    RAISE EXCEPTION 'quick delete: not the caller''s order' USING ERRCODE = 'CMQ01';
  END IF;
  IF o.share_amount <> 0 OR o.shared_out <> 0 OR o.discount <> 0 OR o.comp <> 0
    OR EXISTS (SELECT 1 FROM card_payments WHERE order_id = p_order_id AND state = ANY (p_live_card_states))
    OR EXISTS (SELECT 1 FROM payments WHERE order_id = p_order_id)
    OR EXISTS (SELECT 1 FROM order_adjustments WHERE order_id = p_order_id AND removed_at IS NULL)
  THEN
    RAISE EXCEPTION 'quick delete: not the plain case' USING ERRCODE = 'CMQ01';
  END IF;

  -- The PIN: only an admin's authorises; the caller's own is told apart (verifyPin's ownPinRefused).
  SELECT * INTO pin FROM comanda_pin_attempt(p_pin_keys, p_pin_windows, p_pin_limits, p_pin_hash, p_pin_roles,
    p_user_id, true, p_pin_batch, p_now);
  IF pin.outcome <> 'accepted' THEN
    RETURN json_build_object('pin', pin.outcome, 'counts', to_json(pin.counts));
  END IF;

  IF p_key IS NOT NULL THEN
    INSERT INTO idempotency_keys (key, scope, request_hash, status_code, response, created_at)
      VALUES (p_key, p_scope, p_hash, NULL, NULL, p_now)
      ON CONFLICT (key) DO NOTHING;
    IF NOT FOUND THEN RAISE EXCEPTION 'quick delete: key met again' USING ERRCODE = 'CMQ01'; END IF;
  END IF;

  UPDATE order_items SET is_deleted = 1, deleted_by = pin.user_id, deleted_by_name = pin.user_name, deleted_at = p_now, updated_at = p_now
    WHERE id = p_item_id AND order_id = p_order_id AND is_deleted = 0
    RETURNING * INTO it;
  IF NOT FOUND THEN RAISE EXCEPTION 'quick delete: no such line' USING ERRCODE = 'CMQ01'; END IF;

  -- Printed (comandaPrintedFor): a cancelation slip per enabled printer of the line's station, the
  -- document exactly as enqueue.ts writes it (JSON.stringify: no spaces, keys in its order).
  IF EXISTS (SELECT 1 FROM print_jobs WHERE order_id = p_order_id AND kind IN ('comanda', 'reimpresion')
      AND document LIKE '%"itemId":"' || p_item_id || '"%') THEN
    IF it.modifiers IS NOT NULL THEN RAISE EXCEPTION 'quick delete: a printed line with options' USING ERRCODE = 'CMQ01'; END IF;
    slip := '{"type":"comanda","station":' || to_json(it.station)::text || ',"cancel":true'
      || ',"table":' || to_json(COALESCE(o.table_name, CASE WHEN o.table_number = p_bar_table THEN 'Barra' ELSE 'Mesa ' || o.table_number END))::text
      || ',"waiter":' || COALESCE(to_json(o.waiter_name)::text, 'null')
      || ',"guests":' || to_json(o.people_count)::text
      || ',"orderShortId":' || to_json(right(o.id, 8))::text
      || ',"at":' || to_json(p_now)::text
      || ',"lines":[{"itemId":' || to_json(it.id)::text || ',"quantity":' || to_json(it.quantity)::text
      || ',"name":' || to_json(it.product_name)::text || ',"notes":' || COALESCE(to_json(it.notes)::text, 'null') || '}]}';
    FOR printer IN SELECT id FROM printers WHERE role = it.station AND role IN ('cocina', 'barra') AND enabled = 1
        ORDER BY id COLLATE "C" LOOP
      jobs := jobs + 1;
      IF jobs > COALESCE(array_length(p_job_ids, 1), 0) THEN
        RAISE EXCEPTION 'quick delete: more printers than job ids' USING ERRCODE = 'CMQ01';
      END IF;
      INSERT INTO print_jobs (id, printer_id, role, order_id, kind, document, created_at, state, attempts, next_attempt_at,
          lease_until, claim, maybe_printed, last_error, printed_at)
        VALUES (p_job_ids[jobs], printer.id, it.station, p_order_id, 'cancelacion', slip, p_now, 'pending', 0, p_now,
          NULL, NULL, 0, NULL, NULL);
    END LOOP;
  END IF;

  INSERT INTO audit_log (id, at, actor_id, actor_name, authorized_by, action, entity, entity_id, data)
    VALUES (p_audit_id, p_now, p_user_id, p_user_name, pin.user_id, 'order.item-deleted', 'order', p_order_id,
      '{"itemId":' || to_json(it.id)::text || ',"productId":' || to_json(it.product_id)::text
        || ',"productName":' || to_json(it.product_name)::text || ',"price":' || to_json(it.product_price)::text
        || ',"quantity":' || to_json(it.quantity)::text || ',"status":' || to_json(it.status)::text || '}');

  -- The lines as the delete leaves them, summed once (no discount, comp or share here: total = subtotal).
  SELECT COALESCE(SUM(product_price * quantity), 0) INTO line_sum FROM order_items WHERE order_id = p_order_id AND is_deleted = 0;
  UPDATE orders SET
      subtotal = line_sum,
      total = line_sum,
      version = version + 1,
      updated_at = p_now
    WHERE id = p_order_id
    RETURNING * INTO o;

  RETURN json_build_object('order', row_to_json(o), 'item', row_to_json(it), 'jobs', jobs);
END
$fn$`;

export function quickDelete(kind: DbKind) {
  return {
    async up(db: AnyDb): Promise<void> {
      if (kind === 'postgres') await CREATE.execute(db);
    },
  };
}
