import type { Product } from '@comanda/contract';
import { matchesMenuSearch } from '@comanda/domain';

/**
 * The picker's list: the chosen category (all when null), by name. A search (accents ignored)
 * looks in every category, whatever chip is selected: a waiter typing "limonada" under Comida
 * still finds it.
 */
export function filterPickerProducts(products: readonly Product[], search: string, category: string | null): Product[] {
  const searching = search.trim() !== '';
  return products
    .filter((p) => (searching || category === null || p.category === category) && matchesMenuSearch(search, p.name, p.description))
    .sort((a, b) => a.name.localeCompare(b.name, 'es'));
}

/** The "Más vendidos" row: the served ids in their order, only products still on the list. */
export function topSellerProducts(products: readonly Product[], ids: readonly string[] | undefined): Product[] {
  const byId = new Map(products.map((p) => [p.id, p]));
  return (ids ?? []).flatMap((id) => {
    const p = byId.get(id);
    return p ? [p] : [];
  });
}

/**
 * One line of "Esta ronda": what this visit to the picker added. Taps on a simple product wait a
 * moment ('waiting') so three taps send one line of 3; then 'sending', and 'sent' (with the
 * server's item id, which Deshacer voids) or 'queued' (in the offline outbox, sent later).
 */
export interface RoundEntry {
  key: string;
  productId: string;
  productName: string;
  price: number;
  quantity: number;
  notes: string | null;
  state: 'waiting' | 'sending' | 'sent' | 'queued' | 'undone';
  itemId: string | null;
}

/** Adds one tap of a simple product: onto its waiting line when there is one, else a new line. */
export function tapProduct(entries: readonly RoundEntry[], product: Pick<Product, 'id' | 'name' | 'price'>, key: string): RoundEntry[] {
  const waiting = entries.find((e) => e.productId === product.id && e.state === 'waiting' && e.notes === null);
  if (waiting) return entries.map((e) => (e === waiting ? { ...e, quantity: e.quantity + 1 } : e));
  return [
    ...entries,
    {
      key,
      productId: product.id,
      productName: product.name,
      price: product.price,
      quantity: 1,
      notes: null,
      state: 'waiting',
      itemId: null,
    },
  ];
}

/** Takes one tap back from a waiting line (nothing was sent yet); the line goes at zero. */
export function untapProduct(entries: readonly RoundEntry[], key: string): RoundEntry[] {
  return entries.flatMap((e) =>
    e.key !== key || e.state !== 'waiting' ? [e] : e.quantity > 1 ? [{ ...e, quantity: e.quantity - 1 }] : [],
  );
}

/**
 * A sent line after the server's answer. When the server raised a line this round already shows
 * (taps more than TAP_SETTLE_MS apart reach one pending line), the units join that entry, so
 * Esta ronda reads "3 × Cerveza clara" as the order does.
 */
export function settleEntry(entries: readonly RoundEntry[], key: string, answer: { itemId: string | null; queued: boolean }): RoundEntry[] {
  const self = entries.find((e) => e.key === key);
  if (!self) return [...entries];
  const twin =
    answer.itemId && !answer.queued ? entries.find((e) => e.key !== key && e.state === 'sent' && e.itemId === answer.itemId) : undefined;
  if (twin) return entries.flatMap((e) => (e === self ? [] : e === twin ? [{ ...e, quantity: e.quantity + self.quantity }] : [e]));
  return entries.map((e) => (e === self ? { ...e, state: answer.queued ? 'queued' : 'sent', itemId: answer.itemId } : e));
}

/** Units of a product this round has added or is about to add (undone lines left out). */
export function unitsInRound(entries: readonly RoundEntry[], productId: string): number {
  return entries.filter((e) => e.productId === productId && e.state !== 'undone').reduce((n, e) => n + e.quantity, 0);
}
