import type { SqlFunction } from './sql-function.ts';

/**
 * A session the server took as remembered, checked as resolveSession would: still there, its user
 * active and as the server holds them (id, role, name), neither past its end nor idle too long;
 * seen now when its last touch is older than p_touch_ms. True when it is good. A write that started
 * from a remembered session calls it first and, on false, reads the session again before anything.
 */
export const sessionOkFunction: SqlFunction = {
  name: 'comanda_session_ok',
  text: `CREATE OR REPLACE FUNCTION comanda_session_ok(
  p_session text, p_user_id text, p_role text, p_user_name text, p_idle_ms bigint, p_touch_ms bigint, p_now bigint
) RETURNS boolean LANGUAGE plpgsql AS $fn$
DECLARE
  seen bigint;
BEGIN
  SELECT s.last_seen_at INTO seen FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE s.token_hash = p_session AND u.id = p_user_id AND u.active = 1 AND u.role = p_role
      AND u.display_name = p_user_name AND s.expires_at > p_now AND s.last_seen_at + p_idle_ms > p_now;
  IF NOT FOUND THEN RETURN false; END IF;
  IF p_now - seen > p_touch_ms THEN
    UPDATE sessions SET last_seen_at = p_now WHERE token_hash = p_session;
  END IF;
  RETURN true;
END
$fn$`,
};
