import { ORDER_LIMITS, PLAIN_CASE } from '@comanda/domain';
import { literal, type SqlFunction } from './sql-function.ts';

/**
 * An item add's plain case in one round trip (decision 0042). `comanda_quick_add` does, in one
 * statement and so in one transaction, what the add's TypeScript transaction does when nothing is
 * unusual: the key's claim, the order's lock, the product read FOR SHARE, the line (or, when a
 * pending line may take the units, that line raised, as raiseLine does), one comanda per enabled
 * printer of its station with just the new units, the audit entry and the order's figures.
 * Whenever the add is not the plain case (the domain's PLAIN_CASE and isPlainAdd) it raises
 * SQLSTATE CMQ01 before anything is kept, and the server runs the TypeScript add, which answers.
 *
 * With a session the server took as remembered (not read for this request), it also checks that
 * session first, as resolveSession would, and hands over when it is not good. Everything the add
 * decides in TypeScript comes in as a parameter (the ids, the time, the bar categories, the limits).
 */
export const quickAddFunction: SqlFunction = {
  name: 'comanda_quick_add',
  text: `CREATE OR REPLACE FUNCTION comanda_quick_add(
  p_key text, p_scope text, p_hash text,
  p_order_id text, p_product_id text, p_quantity integer, p_notes text,
  p_user_id text, p_user_name text,
  p_session text, p_role text, p_idle_ms bigint, p_touch_ms bigint,
  p_now bigint, p_item_id text, p_audit_id text, p_job_ids text[],
  p_bar_categories text[], p_bar_table integer, p_max_lines integer, p_max_amount bigint,
  p_first_status text, p_live_card_states text[]
) RETURNS json LANGUAGE plpgsql AS $fn$
DECLARE
  o orders%ROWTYPE;
  it order_items%ROWTYPE;
  twin order_items%ROWTYPE;
  printed order_items%ROWTYPE;
  raises boolean;
  p record;
  station text;
  category text;
  jobs integer;
  line_count bigint;
  line_sum bigint;
BEGIN
  -- A session the server took as remembered: still good (comanda_session_ok), or hand over.
  IF p_session IS NOT NULL AND NOT comanda_session_ok(p_session, p_user_id, p_role, p_user_name, p_idle_ms, p_touch_ms, p_now) THEN
    RAISE EXCEPTION 'quick add: session' USING ERRCODE = 'CMQ01';
  END IF;

  IF NOT comanda_claim_key(p_key, p_scope, p_hash, p_now) THEN
    RAISE EXCEPTION 'quick add: key met again' USING ERRCODE = 'CMQ01';
  END IF;

  -- By its id alone (the primary key): with the status in the condition the planner may walk the
  -- index of every open order instead. A closed order's lock goes with the hand-over's rollback.
  SELECT * INTO o FROM orders WHERE id = p_order_id FOR UPDATE;
  IF NOT FOUND OR NOT comanda_plain_order(o, p_role, p_user_id, p_live_card_states) THEN
    RAISE EXCEPTION 'quick add: not a plain order' USING ERRCODE = 'CMQ01';
  END IF;

  SELECT id, name, price, products.category, available INTO p FROM products WHERE id = p_product_id FOR SHARE;
  IF NOT FOUND OR p.available <> 1 THEN RAISE EXCEPTION 'quick add: product' USING ERRCODE = 'CMQ01'; END IF;
  -- stationOf: trimmed and lower-cased, for the categories PLAIN_CASE.category lets through.
  IF p.category !~ ${literal(PLAIN_CASE.category.source)} THEN
    RAISE EXCEPTION 'quick add: category' USING ERRCODE = 'CMQ01';
  END IF;
  category := lower(translate(btrim(p.category, ' '), 'ÁÉÍÓÚÜÑ', 'áéíóúüñ'));
  station := CASE WHEN category = ANY (p_bar_categories) THEN 'barra' ELSE 'cocina' END;

  -- The order's lines and their sum in one pass (touchOrderRow sums the lines as the add leaves them).
  SELECT COUNT(*), COALESCE(SUM(product_price * quantity) FILTER (WHERE is_deleted = 0), 0) INTO line_count, line_sum
    FROM order_items WHERE order_id = p_order_id;

  -- The pending line the units go onto (the domain's pendingLineFor, mayRaisePendingLine): the same
  -- product, price and notes, no options, promotion, discount or comp, room for the units; the
  -- newest, of two in the same millisecond the greater id (compared as the domain compares strings).
  SELECT * INTO twin FROM order_items t
    WHERE t.order_id = p_order_id AND t.product_id = p.id AND t.status = p_first_status AND t.is_deleted = 0
      AND t.modifiers IS NULL AND t.promotion_id IS NULL AND t.product_price = p.price
      AND t.quantity + p_quantity <= ${ORDER_LIMITS.maxLineQuantity}
      AND NULLIF(btrim(t.notes, ${literal(PLAIN_CASE.trimmed)}), '') IS NOT DISTINCT FROM p_notes
      AND NOT EXISTS (SELECT 1 FROM order_adjustments a WHERE a.item_id = t.id AND a.removed_at IS NULL)
    ORDER BY t.created_at DESC, t.id COLLATE "C" DESC
    LIMIT 1;
  raises := FOUND;

  IF EXISTS (SELECT 1 FROM modifier_groups WHERE min_select > 0 AND id IN
      (SELECT group_id FROM modifier_links WHERE product_id = p.id OR modifier_links.category = p.category))
    OR EXISTS (SELECT 1 FROM promotions WHERE active = 1)
    OR line_count + (NOT raises)::integer > p_max_lines
    OR o.subtotal + p.price * p_quantity > p_max_amount
  THEN
    RAISE EXCEPTION 'quick add: not the plain case' USING ERRCODE = 'CMQ01';
  END IF;

  IF raises THEN
    -- raiseLine: the line's quantity up; its comanda, at the line's station, prints only the new units.
    -- A line the kitchen took meanwhile (the board does not lock the order) goes the TypeScript way.
    UPDATE order_items SET quantity = quantity + p_quantity, updated_at = p_now WHERE id = twin.id AND status = p_first_status
      RETURNING * INTO it;
    IF NOT FOUND THEN RAISE EXCEPTION 'quick add: the line was taken' USING ERRCODE = 'CMQ01'; END IF;
    printed := it;
    printed.quantity := p_quantity;
    jobs := comanda_station_jobs('comanda', it.station, p_order_id, comanda_line_document(o, printed, false, p_now, p_bar_table),
      p_job_ids, p_now);
    INSERT INTO audit_log (id, at, actor_id, actor_name, authorized_by, action, entity, entity_id, data)
      VALUES (p_audit_id, p_now, p_user_id, p_user_name, NULL, 'order.item-added', 'order', p_order_id,
        '{"productId":' || to_json(p_product_id)::text || ',"productName":' || to_json(it.product_name)::text
          || ',"price":' || to_json(p.price)::text || ',"modifiers":[],"itemId":' || to_json(it.id)::text
          || ',"quantity":' || to_json(p_quantity)::text || ',"lineQuantity":' || to_json(it.quantity)::text || '}');
    RETURN comanda_line_answer(p_order_id, line_sum + p.price * p_quantity, p_now, it, jobs);
  END IF;

  INSERT INTO order_items (id, order_id, product_id, product_name, product_price, quantity, status, category, station,
      notes, modifiers, is_deleted, deleted_by, deleted_by_name, deleted_at, created_at, updated_at)
    VALUES (p_item_id, p_order_id, p.id, p.name, p.price, p_quantity, p_first_status, p.category, station,
      p_notes, NULL, 0, NULL, NULL, NULL, p_now, p_now)
    RETURNING * INTO it;

  jobs := comanda_station_jobs('comanda', station, p_order_id, comanda_line_document(o, it, false, p_now, p_bar_table), p_job_ids, p_now);

  INSERT INTO audit_log (id, at, actor_id, actor_name, authorized_by, action, entity, entity_id, data)
    VALUES (p_audit_id, p_now, p_user_id, p_user_name, NULL, 'order.item-added', 'order', p_order_id,
      '{"itemId":' || to_json(it.id)::text || ',"productId":' || to_json(p_product_id)::text
        || ',"productName":' || to_json(p.name)::text || ',"price":' || to_json(p.price)::text
        || ',"quantity":' || to_json(p_quantity)::text || ',"modifiers":[]}');

  RETURN comanda_line_answer(p_order_id, line_sum + it.product_price * it.quantity, p_now, it, jobs);
END
$fn$`,
};
