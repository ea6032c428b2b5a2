import type { SqlFunction } from './sql-function.ts';

/**
 * A comanda (or, with p_cancel, a cancelation slip) of one line, exactly as enqueue.ts writes it
 * (JSON.stringify: no spaces, keys in its order): the header, then the line. A cancelation later
 * finds a comanda by its text ("itemId":"…"). PL/pgSQL, so that its plan is kept (as comanda_plain_order).
 */
export const lineDocumentFunction: SqlFunction = {
  name: 'comanda_line_document',
  text: `CREATE OR REPLACE FUNCTION comanda_line_document(o orders, it order_items, p_cancel boolean, p_now bigint, p_bar_table integer)
RETURNS text LANGUAGE plpgsql IMMUTABLE AS $fn$
BEGIN
  RETURN '{"type":"comanda","station":' || to_json(it.station)::text || CASE WHEN p_cancel THEN ',"cancel":true' ELSE '' END
    || ',"table":' || to_json(comanda_table_label(o.table_name, o.table_number, p_bar_table))::text
    || ',"waiter":' || COALESCE(to_json(o.waiter_name)::text, 'null')
    || ',"guests":' || to_json(o.people_count)::text
    || ',"orderShortId":' || to_json(right(o.id, 8))::text
    || ',"at":' || to_json(p_now)::text
    || ',"lines":[{"itemId":' || to_json(it.id)::text || ',"quantity":' || to_json(it.quantity)::text
    || ',"name":' || to_json(it.product_name)::text || ',"notes":' || COALESCE(to_json(it.notes)::text, 'null') || '}]}';
END
$fn$`,
};
