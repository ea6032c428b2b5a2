import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../src/db/connect.ts';
import { createThrottle, LOGIN_BACKOFF, THROTTLE_KEEP_MS, type Throttle } from '../src/auth/throttle.ts';
import { sweep } from '../src/features/maintenance/housekeeping.ts';
import { startTestServer, testDatabaseKinds, type TestServer } from '../src/testing/index.ts';
import { manualClock } from './cash-close-fixture.ts';

/**
 * Issue 21, item 4: the throttles live in the database. Two throttles on two connections stand
 * for two server processes: what one counts the other sees, racing attempts all count and never
 * let more through than the limit, and the housekeeping prunes what no window needs any more.
 */
describe.each(testDatabaseKinds())('throttles shared through the database on %s', (kind) => {
  let server: TestServer;
  let other: Db;
  const clock = manualClock(Date.UTC(2026, 0, 10, 21, 0, 0));
  let a: Throttle;
  let b: Throttle;

  beforeAll(async () => {
    server = await startTestServer(kind, { clock });
    other = connect(server.ctx.db.url);
    a = server.ctx.throttle;
    b = createThrottle(other, clock);
  });
  afterAll(async () => {
    await other?.close();
    await server?.close();
  });

  it('a window counted by one process is seen by the other, and a refund takes back only its own attempt', async () => {
    const key = 'pin:session:shared-1';
    for (let i = 0; i < 3; i++) await a.hit([[key, 60_000]]);
    const mine = await b.hit([[key, 60_000]]);
    expect(mine.counts).toEqual([4]);
    await b.refund(mine.batch);
    expect((await a.hit([[key, 60_000]])).counts).toEqual([4]);
    clock.set(clock.now() + 60_001);
    expect((await b.hit([[key, 60_000]])).counts, 'the window slid past them').toEqual([1]);
  });

  it('a back-off started by one process makes the other wait; an admin reset on either lifts it', async () => {
    const key = 'login:pair:someone@comanda.mx|192.0.2.1';
    const rule = LOGIN_BACKOFF.pair;
    for (let i = 1; i <= 5; i++) {
      const r = await (i % 2 ? a : b).backoffReserve([[key, rule]]);
      expect(r.ok).toBe(true);
      if (r.ok) expect(r.counted[0]).toMatchObject({ failures: i, waitMs: i === 5 ? 1000 : 0 });
    }
    expect(await b.backoffReserve([[key, rule]])).toEqual({ ok: false, waitMs: 1000 });
    expect(await a.backoffState(key, rule)).toEqual({ failures: 5, until: clock.now() + 1000 });
    expect(await b.keys('login:pair:someone@comanda.mx|')).toEqual([key]);
    await a.resetPrefix('login:pair:someone@comanda.mx|');
    expect(await b.backoffState(key, rule)).toBeNull();
  });

  it('a refunded reservation (the right password) neither counts nor leaves a wait behind', async () => {
    const key = 'login:acct:refund@comanda.mx';
    const rule = LOGIN_BACKOFF.pair;
    for (let i = 0; i < 4; i++) await a.backoffReserve([[key, rule]]);
    const fifth = await b.backoffReserve([[key, rule]]);
    expect(fifth.ok && fifth.counted[0]!.waitMs).toBe(1000);
    if (fifth.ok) await b.backoffRefund(fifth.counted);
    expect(await a.backoffState(key, rule)).toEqual({ failures: 4, until: 0 });
    expect((await a.backoffReserve([[key, rule]])).ok).toBe(true);
  });

  it.runIf(kind === 'postgres')('attempts racing from two processes all count, and never more pass than the limit', async () => {
    const windowKey = 'pin:target:race';
    const hits = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).hit([[windowKey, 60_000]])));
    const rows = await server.ctx.db.db.selectFrom('throttle_hits').select('batch').where('key', '=', windowKey).execute();
    expect(rows).toHaveLength(30);
    // A limit of 10: at most 10 of the racing attempts see themselves within it.
    expect(hits.filter((h) => h.counts[0]! <= 10).length).toBeLessThanOrEqual(10);

    const backoffKey = 'login:acct:race@comanda.mx';
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).backoffReserve([[backoffKey, LOGIN_BACKOFF.account]])),
    );
    // Counted one after another under the row's lock: the 10th starts the wait, the rest wait it out.
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    expect((await a.backoffState(backoffKey, LOGIN_BACKOFF.account))?.failures).toBe(10);
  });

  it('the housekeeping prunes failures and back-offs no window needs any more', async () => {
    await a.hit([['client-error:ip:old', 60_000]]);
    await a.backoffReserve([['login:ip:old', LOGIN_BACKOFF.address]]);
    clock.set(clock.now() + THROTTLE_KEEP_MS + 1);
    await b.hit([['client-error:ip:new', 60_000]]);
    await sweep(server.ctx);
    const keys = async (table: 'throttle_hits' | 'throttle_backoffs') =>
      (await server.ctx.db.db.selectFrom(table).select('key').execute()).map((r) => r.key);
    expect(await keys('throttle_hits')).toEqual(['client-error:ip:new']);
    expect(await keys('throttle_backoffs')).not.toContain('login:ip:old');
  });
});
