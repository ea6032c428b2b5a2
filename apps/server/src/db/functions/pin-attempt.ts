import type { SqlFunction } from './sql-function.ts';

/**
 * A PIN attempt judged and counted in one round trip (decision 0044). `comanda_pin_attempt` takes
 * the transaction-scoped advisory locks of the attempt's budget keys (sorted, so two attempts never
 * wait on each other crosswise), counts the failures inside each key's window, and answers:
 *
 * - 'blocked' when a budget is already spent (nothing counted);
 * - 'accepted' with the user, when the PIN is an active user's of an allowed role (nothing counted:
 *   a correct PIN is never a failure, so there is nothing to give back);
 * - 'own' when it is the caller's own PIN and the caller refuses it (nothing counted);
 * - 'wrong' otherwise, with one failure counted on every key, the counts including it.
 *
 * Attempts on a key are serialised by its lock until they commit, so an attempt counts every
 * failure before it: what the TypeScript path (auth/verify-pin.ts) gets by counting each attempt in
 * advance and giving back the ones that were not failures. The rule stays in TypeScript: the keys,
 * windows, limits and roles come in as parameters, and the server audits what the answer says.
 */
export const pinAttemptFunction: SqlFunction = {
  name: 'comanda_pin_attempt',
  text: `CREATE OR REPLACE FUNCTION comanda_pin_attempt(
  p_keys text[], p_windows bigint[], p_limits integer[],
  p_pin_hash text, p_roles text[], p_actor_id text, p_own_refused boolean,
  p_batch text, p_at bigint,
  OUT outcome text, OUT user_id text, OUT user_name text, OUT user_role text, OUT counts integer[])
LANGUAGE plpgsql AS $fn$
DECLARE
  v_lock bigint;
  v_n integer;
  v_id text;
  v_name text;
  v_role text;
  v_active integer;
  v_blocked boolean := false;
BEGIN
  FOR v_lock IN SELECT DISTINCT hashtextextended(k, 0) FROM unnest(p_keys) AS k ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(v_lock);
  END LOOP;
  counts := ARRAY[]::integer[];
  FOR i IN 1 .. coalesce(array_length(p_keys, 1), 0) LOOP
    SELECT count(*) INTO v_n FROM throttle_hits WHERE key = p_keys[i] AND at > p_at - p_windows[i];
    counts := counts || v_n;
    IF v_n >= p_limits[i] THEN v_blocked := true; END IF;
  END LOOP;
  IF v_blocked THEN
    outcome := 'blocked';
    RETURN;
  END IF;
  IF p_pin_hash IS NOT NULL THEN
    SELECT u.id, u.display_name, u.role, u.active INTO v_id, v_name, v_role, v_active FROM users u WHERE u.pin_hash = p_pin_hash;
  END IF;
  IF v_id IS NOT NULL AND v_active <> 0 THEN
    IF p_roles IS NULL OR v_role = ANY (p_roles) THEN
      outcome := 'accepted';
      user_id := v_id;
      user_name := v_name;
      user_role := v_role;
      RETURN;
    END IF;
    IF v_id = p_actor_id AND p_own_refused THEN
      outcome := 'own';
      RETURN;
    END IF;
  END IF;
  INSERT INTO throttle_hits (batch, key, at) SELECT DISTINCT p_batch, k, p_at FROM unnest(p_keys) AS k;
  counts := ARRAY(SELECT c + 1 FROM unnest(counts) WITH ORDINALITY AS t(c, n) ORDER BY n);
  outcome := 'wrong';
END
$fn$`,
};
