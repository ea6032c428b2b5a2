import type { SqlFunction } from './sql-function.ts';

/** A write's idempotency key claimed (no answer yet), as claimingKey does; false when it was met before. No key: true. */
export const claimKeyFunction: SqlFunction = {
  name: 'comanda_claim_key',
  text: `CREATE OR REPLACE FUNCTION comanda_claim_key(p_key text, p_scope text, p_hash text, p_now bigint)
RETURNS boolean LANGUAGE plpgsql AS $fn$
BEGIN
  IF p_key IS NULL THEN RETURN true; END IF;
  INSERT INTO idempotency_keys (key, scope, request_hash, status_code, response, created_at)
    VALUES (p_key, p_scope, p_hash, NULL, NULL, p_now)
    ON CONFLICT (key) DO NOTHING;
  RETURN FOUND;
END
$fn$`,
};
