import type { SqlFunction } from './sql-function.ts';

/**
 * One print job of a line's document per enabled printer of its station, by printer id in code
 * order (as enqueue.ts sorts them), with the ids given; the number written. More printers than
 * ids: SQLSTATE CMQ01, the write goes the TypeScript way.
 */
export const stationJobsFunction: SqlFunction = {
  name: 'comanda_station_jobs',
  text: `CREATE OR REPLACE FUNCTION comanda_station_jobs(
  p_kind text, p_station text, p_order_id text, p_document text, p_job_ids text[], p_now bigint
) RETURNS integer LANGUAGE plpgsql AS $fn$
DECLARE
  printer record;
  jobs integer := 0;
BEGIN
  FOR printer IN SELECT id FROM printers WHERE role = p_station AND role IN ('cocina', 'barra') AND enabled = 1
      ORDER BY id COLLATE "C" LOOP
    jobs := jobs + 1;
    IF jobs > COALESCE(array_length(p_job_ids, 1), 0) THEN
      RAISE EXCEPTION 'more printers than job ids' USING ERRCODE = 'CMQ01';
    END IF;
    INSERT INTO print_jobs (id, printer_id, role, order_id, kind, document, created_at, state, attempts, next_attempt_at,
        lease_until, claim, maybe_printed, last_error, printed_at)
      VALUES (p_job_ids[jobs], printer.id, p_station, p_order_id, p_kind, p_document, p_now, 'pending', 0, p_now,
        NULL, NULL, 0, NULL, NULL);
  END LOOP;
  RETURN jobs;
END
$fn$`,
};
