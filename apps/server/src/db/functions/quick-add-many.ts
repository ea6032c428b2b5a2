import type { SqlFunction } from './sql-function.ts';

/**
 * Several item adds in one statement and one transaction (decision 0048). `comanda_quick_add_many`
 * runs `comanda_quick_add` for each member in turn, each in its own subtransaction, exactly as
 * SQLite's group commit runs each mutation in its own SAVEPOINT: a member that is not the plain case
 * (SQLSTATE CMQ01) or fails is undone alone and answered so, and the others are kept. Members are
 * locked in the order the server sends them (by order id), so two groups never wait on each other
 * crosswise. Each member answers one element of the returned array: `comanda_quick_add`'s result,
 * `{"handedOver": true}`, or `{"error": SQLSTATE}` (the server sends that add again alone). One
 * `p_now` for all: the group's lines follow its order, never back in time.
 */
export const quickAddManyFunction: SqlFunction = {
  name: 'comanda_quick_add_many',
  text: `CREATE OR REPLACE FUNCTION comanda_quick_add_many(
  p_members json, p_now bigint, p_idle_ms bigint, p_touch_ms bigint,
  p_bar_categories text[], p_bar_table integer, p_max_lines integer, p_max_amount bigint,
  p_first_status text, p_live_card_states text[]
) RETURNS json LANGUAGE plpgsql AS $fn$
DECLARE
  m record;
  answer json;
  answers json[] := '{}';
BEGIN
  -- Each member's fields read in one pass (json's ->> would lex the member again for every field).
  FOR m IN SELECT * FROM json_to_recordset(p_members) AS x(key text, scope text, hash text, "orderId" text, "productId" text,
      quantity integer, notes text, "userId" text, "userName" text, session text, role text, "itemId" text, "auditId" text,
      "jobIds" text) LOOP
    BEGIN
      answer := comanda_quick_add(
        m.key, m.scope, m.hash, m."orderId", m."productId", m.quantity, m.notes,
        m."userId", m."userName",
        m.session, m.role, p_idle_ms, p_touch_ms,
        p_now, m."itemId", m."auditId", string_to_array(m."jobIds", ','),
        p_bar_categories, p_bar_table, p_max_lines, p_max_amount, p_first_status, p_live_card_states);
    EXCEPTION
      WHEN SQLSTATE 'CMQ01' THEN answer := '{"handedOver":true}';
      WHEN OTHERS THEN answer := json_build_object('error', SQLSTATE);
    END;
    answers := answers || answer;
  END LOOP;
  RETURN array_to_json(answers);
END
$fn$`,
};
