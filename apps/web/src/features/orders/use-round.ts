import { useCallback, useEffect, useRef, useState } from 'react';
import type { Product } from '@comanda/contract';
import { newId } from '../../lib/ids.ts';
import { tapProduct, unitsInRound, untapProduct, type RoundEntry } from './picker-model.ts';

export interface PickedProduct {
  productId: string;
  productName: string;
  quantity: number;
  notes: string | null;
  /** The chosen modifier options; the server prices them. */
  optionIds: string[];
  /** What the line will cost per unit with those options, and how they read: for a queued add's preview. */
  unitPrice: number;
  modifierLabels: string[];
}

/** What the order screen answers for one pick: the new line's id when the server took it, or queued offline. */
export type PickAnswer = { itemId: string | null; queued: boolean };

/** How long taps on a simple product wait for more taps, so three taps send one line of 3. */
export const TAP_SETTLE_MS = 700;

/**
 * This visit's lines. Taps on a simple product wait TAP_SETTLE_MS for more taps of the same
 * product, then go as one pick (one add-item, or one outbox entry offline); closing the picker
 * sends whatever still waits.
 */
export function useRound(onPick: (pick: PickedProduct) => Promise<PickAnswer | null>) {
  const [entries, setEntries] = useState<RoundEntry[]>([]);
  const ref = useRef<RoundEntry[]>([]);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const pick = useRef(onPick);
  pick.current = onPick;
  const update = useCallback((next: RoundEntry[]) => {
    ref.current = next;
    setEntries(next);
  }, []);
  const patchEntry = useCallback(
    (key: string, change: Partial<RoundEntry>) => update(ref.current.map((e) => (e.key === key ? { ...e, ...change } : e))),
    [update],
  );

  const flush = useCallback(
    async (key: string) => {
      clearTimeout(timers.current.get(key));
      timers.current.delete(key);
      const entry = ref.current.find((e) => e.key === key && e.state === 'waiting');
      if (!entry) return;
      patchEntry(key, { state: 'sending' });
      const answer = await pick.current({
        productId: entry.productId,
        productName: entry.productName,
        quantity: entry.quantity,
        notes: entry.notes,
        optionIds: [],
        unitPrice: entry.price,
        modifierLabels: [],
      });
      if (!answer) update(ref.current.filter((e) => e.key !== key));
      else patchEntry(key, { state: answer.queued ? 'queued' : 'sent', itemId: answer.itemId });
    },
    [patchEntry, update],
  );
  const flushAll = useCallback(() => {
    for (const e of ref.current) if (e.state === 'waiting') void flush(e.key);
  }, [flush]);
  const reset = useCallback(() => update([]), [update]);
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((timer) => clearTimeout(timer));
  }, []);

  return {
    entries,
    flushAll,
    reset,
    units: (productId: string) => unitsInRound(entries, productId),
    tap(product: Product) {
      // Another product's taps are done: they go now, so lines reach the order in the order tapped.
      for (const e of ref.current) if (e.state === 'waiting' && e.productId !== product.id) void flush(e.key);
      const next = tapProduct(ref.current, product, newId());
      update(next);
      const line = next.find((e) => e.productId === product.id && e.state === 'waiting' && e.notes === null)!;
      clearTimeout(timers.current.get(line.key));
      timers.current.set(
        line.key,
        setTimeout(() => void flush(line.key), TAP_SETTLE_MS),
      );
    },
    untap(key: string) {
      const next = untapProduct(ref.current, key);
      if (!next.some((e) => e.key === key)) {
        clearTimeout(timers.current.get(key));
        timers.current.delete(key);
      }
      update(next);
    },
    /** A pick from the quantity and notes step: sent at once. */
    async send(
      line: { productId: string; productName: string; price: number; quantity: number; notes: string | null },
      choice: { optionIds: string[]; unitPrice: number; modifierLabels: string[] },
    ): Promise<boolean> {
      const key = newId();
      update([...ref.current, { key, ...line, price: choice.unitPrice, state: 'sending', itemId: null }]);
      const answer = await pick.current({
        productId: line.productId,
        productName: line.productName,
        quantity: line.quantity,
        notes: line.notes,
        ...choice,
      });
      if (!answer) {
        update(ref.current.filter((e) => e.key !== key));
        return false;
      }
      patchEntry(key, { state: answer.queued ? 'queued' : 'sent', itemId: answer.itemId });
      return true;
    },
    markUndone: (key: string) => patchEntry(key, { state: 'undone' }),
  };
}

export type Round = ReturnType<typeof useRound>;
