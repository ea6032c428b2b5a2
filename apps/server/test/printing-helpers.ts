import { stationOf } from '@comanda/domain';
import type { Order, Table } from '@comanda/contract';
import { expect } from 'vitest';
import { startTestServer, type ApiClient, type TestDbKind, type TestServer } from '../src/testing/index.ts';
import { PrinterEmulator, type ReceivedTicket } from '../src/features/printing/emulator/emulator.ts';

export type Product = { id: string; name: string; price: number; category: string; station: 'cocina' | 'barra' };

export async function startEmulators(keep = 1000): Promise<Record<'cocina' | 'barra' | 'caja', PrinterEmulator>> {
  const make = async (name: string) => {
    const e = new PrinterEmulator({ name, keep });
    await e.start();
    return e;
  };
  return { cocina: await make('cocina'), barra: await make('barra'), caja: await make('caja') };
}

export function printersEnv(e: Record<'cocina' | 'barra' | 'caja', PrinterEmulator>): string {
  return `cocina=${e.cocina.url},barra=${e.barra.url},caja=${e.caja.url}`;
}

/** A server whose PRINTERS are three emulators on loopback, with an admin and a waiter signed in. */
export interface PrintingServer {
  server: TestServer;
  printers: Record<'cocina' | 'barra' | 'caja', PrinterEmulator>;
  admin: ApiClient;
  waiter: ApiClient;
  /** Stops the server, then the printers. */
  stop(): Promise<void>;
}

export async function startPrintingServer(kind: TestDbKind, env: Record<string, string> = {}): Promise<PrintingServer> {
  const printers = await startEmulators();
  const stopPrinters = async () => {
    for (const p of Object.values(printers)) await p.stop();
  };
  let server: TestServer | undefined;
  try {
    server = await startTestServer(kind, { env: { PRINTERS: printersEnv(printers), ...env } });
    const started = server;
    return {
      server,
      printers,
      admin: await server.login(server.users.admin.email),
      waiter: await server.login(server.users.waiter.email),
      async stop() {
        await started.close();
        await stopPrinters();
      },
    };
  } catch (error) {
    // A setup that failed half way leaves no listener behind for the next suite.
    await server?.close();
    await stopPrinters();
    throw error;
  }
}

export async function productsByStation(server: TestServer): Promise<Product[]> {
  const rows = await server.ctx.db.db
    .selectFrom('products')
    .select(['id', 'name', 'price', 'category'])
    .where('available', '=', 1)
    .execute();
  return rows.map((p) => ({ ...p, price: Number(p.price), station: stationOf(p.category) }));
}

let nextTable = 300;
/** A new table opened by `who`, so tests stay independent. */
export async function freshOrder(admin: ApiClient, who: ApiClient): Promise<Order> {
  const number = nextTable++;
  const created = await admin.post<{ table: Table }>('/api/tables', { number });
  expect(created.status).toBe(200);
  const opened = await who.post<{ order: Order }>(`/api/tables/${created.body.table.id}/open`);
  expect(opened.status).toBe(200);
  return opened.body.order;
}

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** How many times each note marker appears across the tickets a printer received. */
export function countMarkers(tickets: ReceivedTicket[], pattern: RegExp): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of tickets) for (const m of t.text.matchAll(pattern)) counts.set(m[0], (counts.get(m[0]) ?? 0) + 1);
  return counts;
}
