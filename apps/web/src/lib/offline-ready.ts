import { useEffect } from 'react';
import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { ActivePromotion, Order, Table } from '@comanda/contract';
import { afterFirstScreen, afterNextPaint } from './after-first-screen.ts';
import { TABLES_KEY } from './boot.ts';
import { availableProductsQuery, pickerModifierGroupsQuery } from './catalogue.ts';
import { connection } from './connection.ts';
import { deviceCopies } from './device-copy.ts';
import { liveClient } from './live.ts';
import { menuConfigQuery, topSellersQuery } from './menu.ts';
import { tableOrderKey, tableOrderQuery } from './orders.ts';
import { activePromotionsQuery, promotionsByProduct } from './promotions.ts';
import { preloadScreens } from './screens.ts';

interface Kept {
  query: { queryKey: QueryKey; queryFn?: unknown; staleTime?: unknown };
  /** How the data is stored when it is not plain JSON (the promotions' Map). */
  save?: (data: unknown) => unknown;
  load?: (stored: unknown) => unknown;
}

/** The catalogue as the picker reads it: products (agotados out), modifiers, promotions, order of categories, "Más vendidos". */
const CATALOGUE: Kept[] = [
  { query: availableProductsQuery },
  { query: pickerModifierGroupsQuery },
  {
    query: activePromotionsQuery,
    save: (data) => [...(data as Map<string, ActivePromotion>).values()],
    load: (stored) => promotionsByProduct(stored as ActivePromotion[]),
  },
  { query: menuConfigQuery },
  { query: topSellersQuery },
];
const nameOf = (key: QueryKey) => JSON.stringify(key);
const keptByName = new Map(CATALOGUE.map((k) => [nameOf(k.query.queryKey), k]));
/** At most this many orders are read ahead for a waiter's tables. */
const ORDERS_AHEAD = 40;

/** Puts what the device kept into the cache where nothing newer is there, marked with when it was read. */
async function restore(qc: QueryClient): Promise<void> {
  const copies = await deviceCopies.all().catch(() => []);
  for (const copy of copies) {
    const kept = keptByName.get(copy.key);
    if (!kept || qc.getQueryData(kept.query.queryKey) !== undefined) continue;
    qc.setQueryData(kept.query.queryKey, kept.load ? kept.load(copy.data) : copy.data, { updatedAt: copy.savedAt });
  }
}

/** Reads the whole catalogue from the server (inactive queries too: the picker may not be open). */
function refreshCatalogue(qc: QueryClient): void {
  if (connection.isOffline()) return;
  for (const { query } of CATALOGUE)
    void qc.fetchQuery({ ...(query as Parameters<QueryClient['fetchQuery']>[0]), staleTime: 0 }).catch(() => undefined);
}

/** Reads ahead the orders of the tables this waiter works whose cached copy is missing or older than the card's. */
function readOrdersAhead(qc: QueryClient): void {
  if (connection.isOffline()) return;
  const tables = qc.getQueryData<Table[]>(TABLES_KEY) ?? [];
  const wanted: { tableId: string; cuenta: string | null; version: number }[] = [];
  for (const table of tables) {
    // The tables route lists only the orders this user may see. A table with several open
    // orders (checks, the bar's tabs) opens each by its id (?cuenta=), the first one too.
    if (table.order) wanted.push({ tableId: table.id, cuenta: null, version: table.order.version });
    const extras = table.extraOrders ?? [];
    for (const o of extras.length > 0 && table.order ? [table.order, ...extras] : extras)
      wanted.push({ tableId: table.id, cuenta: o.id, version: o.version });
  }
  for (const { tableId, cuenta, version } of wanted.slice(0, ORDERS_AHEAD)) {
    const cached = qc.getQueryData<Order>(tableOrderKey(tableId, cuenta));
    if (cached && cached.version >= version) continue;
    void qc.prefetchQuery({ ...tableOrderQuery(tableId, cuenta), staleTime: 0 });
  }
}

/**
 * Keeps a waiter's phone able to work without the network from any screen: the catalogue kept
 * on the device and refreshed by the products and config events, the orders of the waiter's
 * tables read ahead as their cards change, and every waiter screen's chunk loaded. All of it a
 * moment after the first screen, never in its way.
 */
export function useOfflineReady(area: string): void {
  const qc = useQueryClient();
  useEffect(() => {
    // IndexedDB is read once the first screen is drawn, never in its way.
    afterNextPaint(() => void restore(qc));
    const offs: (() => void)[] = [];
    // Each catalogue answer from the server is kept on the device as it arrives.
    offs.push(
      qc.getQueryCache().subscribe((event) => {
        if (event.type !== 'updated' || event.action.type !== 'success' || event.action.manual) return;
        const name = nameOf(event.query.queryKey);
        const kept = keptByName.get(name);
        if (kept)
          void deviceCopies.put({ key: name, data: kept.save ? kept.save(event.action.data) : event.action.data, savedAt: Date.now() });
        else if (name === nameOf(TABLES_KEY)) readOrdersAhead(qc);
      }),
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const soon = () => {
      clearTimeout(timer);
      timer = setTimeout(() => refreshCatalogue(qc), 300);
    };
    offs.push(
      afterFirstScreen(() => {
        void preloadScreens(area);
        refreshCatalogue(qc);
        readOrdersAhead(qc);
        offs.push(liveClient.subscribe('products', soon), liveClient.subscribe('config', soon), liveClient.onResync(soon));
      }),
    );
    return () => {
      clearTimeout(timer);
      offs.forEach((off) => off());
    };
  }, [qc, area]);
}
