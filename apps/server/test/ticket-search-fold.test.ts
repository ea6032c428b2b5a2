import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { TicketsPage } from '@comanda/contract';
import { ticketSearch } from '../src/db/migrations/0006-ticket-search.ts';
import { ticketSearchFold } from '../src/db/migrations/0028-ticket-search-fold.ts';
import { foldingGlob, parseTicketSearch } from '../src/features/tickets/ticket-search.ts';
import { backupSqliteFile } from '../src/ops/backup.ts';
import { startTestServer, type TestServer } from '../src/testing/index.ts';
import { insertOrder } from './cash-close-fixture.ts';

const run = promisify(execFile);

/** The system's sqlite3 (Debian 12: 3.40), as a technician would open the file. */
async function sqlite3(file: string, statement: string): Promise<string> {
  const { stdout } = await run('sqlite3', [file, statement]);
  return stdout.trim();
}

const servers: TestServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});

async function serverWithAccentedTickets(): Promise<TestServer> {
  const server = await startTestServer('sqlite', { checkInvariants: false /* fixtures insert paid orders directly */ });
  servers.push(server);
  await insertOrder(server, {
    tableNumber: 4,
    tableName: 'Piña Colada Bar',
    completedAt: 1_715_400_000_000,
    items: [{ name: 'Cerveza', price: 5_000, quantity: 1 }],
  });
  await insertOrder(server, {
    tableNumber: 6,
    tableName: 'CUMPLEAÑOS DE JOSÉ',
    completedAt: 1_715_390_000_000,
    items: [{ name: 'Tacos', price: 9_500, quantity: 1 }],
  });
  return server;
}

async function searchTables(server: TestServer, term: string): Promise<(string | null)[]> {
  const admin = await server.login(server.users.admin.email);
  const res = await admin.get<TicketsPage>(`/api/tickets?search=${encodeURIComponent(term)}`);
  expect(res.status, term).toBe(200);
  return res.body.tickets.map((t) => t.tableName);
}

describe('the database and its backups open in the stock sqlite3 tool', () => {
  it('a fresh backup passes PRAGMA integrity_check in the system sqlite3, and its tables read', { timeout: 60_000 }, async () => {
    const server = await serverWithAccentedTickets();
    const backup = join(server.ctx.config.DATA_DIR, 'respaldo.db');
    await backupSqliteFile(server.ctx.db.url.slice('sqlite:'.length), backup);
    console.log(`system sqlite3 ${(await run('sqlite3', ['--version'])).stdout.split(' ')[0]}`);
    expect(await sqlite3(backup, 'PRAGMA integrity_check;')).toBe('ok');
    expect(await sqlite3(backup, `select count(*) from orders where status = 'pagado';`)).toBe('2');
    expect(await sqlite3(server.ctx.db.url.slice('sqlite:'.length), 'PRAGMA integrity_check;')).toBe('ok');
  });

  it(
    'a database indexed by the old folding triggers is rebuilt: sqlite3 opens it, searches still ignore accents',
    { timeout: 60_000 },
    async () => {
      const server = await serverWithAccentedTickets();
      const db = server.ctx.db.db;
      const file = server.ctx.db.url.slice('sqlite:'.length);
      // Back to the index as migration 0006 left it (folded in SQL by ~50 nested replace()).
      for (const name of [
        'orders_ticket_search_ai',
        'orders_ticket_search_au',
        'orders_ticket_search_ad',
        'ticket_search_ai',
        'ticket_search_ad',
      ])
        await sql.raw(`DROP TRIGGER ${name}`).execute(db);
      await sql`DROP TABLE ticket_search_fts`.execute(db);
      await sql`DROP TABLE ticket_search`.execute(db);
      await ticketSearch('sqlite').up(db);
      await expect(sqlite3(file, 'PRAGMA integrity_check;')).rejects.toThrow(/parser stack overflow/);

      await ticketSearchFold('sqlite').up(db);
      const again = server;
      const bodies = await again.ctx.db.db
        .selectFrom(sql<{ body: string }>`ticket_search`.as('s'))
        .select('s.body')
        .execute();
      expect(bodies.map((b) => b.body).sort()).toEqual(['CUMPLEAÑOS DE JOSÉ\nMario Mesero', 'Piña Colada Bar\nMario Mesero']);
      expect(await sqlite3(file, 'PRAGMA integrity_check;')).toBe('ok');
      expect(await searchTables(again, 'jose')).toEqual(['CUMPLEAÑOS DE JOSÉ']);
      expect(await searchTables(again, 'PIÑA')).toEqual(['Piña Colada Bar']);
      expect(await searchTables(again, 'ñ')).toEqual(['Piña Colada Bar', 'CUMPLEAÑOS DE JOSÉ']);
      expect(await searchTables(again, 'Ós')).toEqual(['CUMPLEAÑOS DE JOSÉ']);
      // No letter with accents: a plain LIKE, case-blind.
      expect(await searchTables(again, 'pL')).toEqual(['CUMPLEAÑOS DE JOSÉ']);
    },
  );
});

describe('foldingGlob', () => {
  it('makes each letter the class of its cases and accents, matches GLOB wildcards literally, and is left out when LIKE is exact', () => {
    expect(foldingGlob('jose')).toBe('*[jJ][oOóòôöõÓÒÔÖÕ][sS][eEéèêëÉÈÊË]*');
    expect(foldingGlob('5*?[]-')).toBe('*5[*][?][[]]-*');
    expect(parseTicketSearch('ÓS')?.nameGlob).toBe('*[oOóòôöõÓÒÔÖÕ][sS]*');
    expect(parseTicketSearch('pl')?.nameGlob).toBeNull();
    expect(parseTicketSearch('ø')?.nameGlob).toBe('*[øØ]*');
  });
});
