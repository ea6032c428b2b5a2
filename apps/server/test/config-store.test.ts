import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, statementsDuring, testDatabaseKinds, type TestServer } from '../src/testing/index.ts';
import { transact } from '../src/db/transact.ts';
import { readConfig, rememberConfig, writeConfig } from '../src/model/config-store.ts';

/** A setting is read once per transaction (a close needs 'general' twice), and never past it; the ones a close needs, in one statement. */
describe.each(testDatabaseKinds())('settings read within a transaction on %s', (kind) => {
  let server: TestServer;
  const KEY = 'memo-test';

  beforeAll(async () => {
    server = await startTestServer(kind);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const read = () => readConfig<{ n: number }>(server.ctx.db.db, KEY);
  const reads = (seen: string[]) => seen.filter((s) => /from "config"/i.test(s)).length;

  it('reads a key once per transaction, sees its own write, and hands out copies', async () => {
    await transact(server.ctx.db, (trx) => writeConfig(trx, KEY, { n: 1 }, 1));
    const seen = await statementsDuring(server.ctx.db, () =>
      transact(server.ctx.db, async (trx) => {
        const first = await readConfig<{ n: number }>(trx, KEY);
        first!.n = 99; // a caller changing its copy changes nothing for the next one
        expect(await readConfig(trx, KEY)).toEqual({ n: 1 });
        await writeConfig(trx, KEY, { n: 2 }, 2);
        expect(await readConfig(trx, KEY)).toEqual({ n: 2 });
        expect(await readConfig(trx, 'no-such-key')).toBeNull();
        expect(await readConfig(trx, 'no-such-key')).toBeNull();
      }),
    );
    expect(reads(seen)).toBe(2); // the key once, the missing key once
    expect(await read()).toEqual({ n: 2 });
    // Outside a transaction nothing is remembered: each read is a statement.
    const outside = await statementsDuring(server.ctx.db, async () => {
      await read();
      await read();
    });
    expect(reads(outside)).toBe(2);
  });

  it("reads the settings a close needs together in one statement: the business's and the drawer's", async () => {
    await transact(server.ctx.db, async (trx) => {
      await writeConfig(trx, 'drawer', { enabled: true }, 5);
      await writeConfig(trx, 'general', { name: 'La Cantina' }, 5);
    });
    const seen = await statementsDuring(server.ctx.db, () =>
      transact(server.ctx.db, async (trx) => {
        expect(await readConfig(trx, 'general')).toEqual({ name: 'La Cantina' });
        expect(await readConfig(trx, 'drawer')).toEqual({ enabled: true });
        expect(await readConfig(trx, KEY)).not.toBeNull();
      }),
    );
    expect(reads(seen)).toBe(2); // 'general' with 'drawer', then the other key alone
    // A setting that is not stored is read as none, also when read along with another.
    await transact(server.ctx.db, (trx) => trx.deleteFrom('config').where('key', '=', 'drawer').execute());
    await transact(server.ctx.db, async (trx) => {
      expect(await readConfig(trx, 'general')).toEqual({ name: 'La Cantina' });
      expect(await readConfig(trx, 'drawer')).toBeNull();
    });
  });

  it('a rolled-back write is not seen by the next transaction', async () => {
    await transact(server.ctx.db, (trx) => writeConfig(trx, KEY, { n: 3 }, 3));
    await expect(
      transact(server.ctx.db, async (trx) => {
        await writeConfig(trx, KEY, { n: 4 }, 4);
        expect(await readConfig(trx, KEY)).toEqual({ n: 4 });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await transact(server.ctx.db, (trx) => readConfig(trx, KEY))).toEqual({ n: 3 });
  });
  it('remembers the settings another statement read with its own: no read of their own, a key the transaction wrote keeps its value', async () => {
    const stored = (value: unknown) => JSON.stringify(value);
    const seen = await statementsDuring(server.ctx.db, () =>
      transact(server.ctx.db, async (trx) => {
        await writeConfig(trx, 'general', { name: 'Escrito aquí' }, 7);
        rememberConfig(trx, [
          { key: 'general', value: stored({ name: 'Leído con otra' }) },
          { key: 'drawer', value: stored({ enabled: false }) },
        ]);
        expect(await readConfig(trx, 'general')).toEqual({ name: 'Escrito aquí' });
        expect(await readConfig(trx, 'drawer')).toEqual({ enabled: false });
      }),
    );
    expect(reads(seen)).toBe(0);
    // A setting the other statement found no row for is none, with no read either.
    const none = await statementsDuring(server.ctx.db, () =>
      transact(server.ctx.db, async (trx) => {
        rememberConfig(trx, []);
        expect(await readConfig(trx, 'drawer')).toBeNull();
      }),
    );
    expect(reads(none)).toBe(0);
  });
});
