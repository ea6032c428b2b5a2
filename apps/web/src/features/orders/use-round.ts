import { useCallback, useEffect, useRef, useState } from 'react';
import type { Product } from '@comanda/contract';
import { newId } from '../../lib/ids.ts';
import { settleEntry, tapProduct, unitsInRound, untapProduct, type RoundEntry } from './picker-model.ts';

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

/** The round's lines, also in a ref so that an answer arriving later patches the latest lines, not a render's copy. */
function useRoundEntries() {
  const [entries, setEntries] = useState<RoundEntry[]>([]);
  const ref = useRef<RoundEntry[]>([]);
  const update = useCallback((next: RoundEntry[]) => {
    ref.current = next;
    setEntries(next);
  }, []);
  const patchEntry = useCallback(
    (key: string, change: Partial<RoundEntry>) => update(ref.current.map((e) => (e.key === key ? { ...e, ...change } : e))),
    [update],
  );
  /** A sent line after the answer: gone when the pick was dropped, else sent (joined to the line the server raised) or queued. */
  const settle = useCallback(
    (key: string, answer: PickAnswer | null): boolean => {
      if (!answer) {
        update(ref.current.filter((e) => e.key !== key));
        return false;
      }
      update(settleEntry(ref.current, key, answer));
      return true;
    },
    [update],
  );
  return { entries, ref, update, patchEntry, settle };
}

/** One settle timer per waiting line, all cleared when the picker goes away. */
function useSettleTimers() {
  const [timers] = useState(() => {
    const pending = new Map<string, ReturnType<typeof setTimeout>>();
    return {
      pending,
      cancel(key: string) {
        clearTimeout(pending.get(key));
        pending.delete(key);
      },
      restart(key: string, run: () => void) {
        clearTimeout(pending.get(key));
        pending.set(key, setTimeout(run, TAP_SETTLE_MS));
      },
    };
  });
  useEffect(() => () => timers.pending.forEach((timer) => clearTimeout(timer)), [timers]);
  return timers;
}

/**
 * This visit's lines. Taps on a simple product wait TAP_SETTLE_MS for more taps of the same
 * product, then go as one pick (one add-item, or one outbox entry offline); closing the picker
 * sends whatever still waits.
 */
export function useRound(onPick: (pick: PickedProduct) => Promise<PickAnswer | null>) {
  const { entries, ref, update, patchEntry, settle } = useRoundEntries();
  const timers = useSettleTimers();
  const pick = useRef(onPick);
  pick.current = onPick;

  const flush = useCallback(
    async (key: string) => {
      timers.cancel(key);
      const entry = ref.current.find((e) => e.key === key && e.state === 'waiting');
      if (!entry) return;
      patchEntry(key, { state: 'sending' });
      const { productId, productName, quantity, notes, price } = entry;
      settle(key, await pick.current({ productId, productName, quantity, notes, optionIds: [], unitPrice: price, modifierLabels: [] }));
    },
    [timers, ref, patchEntry, settle],
  );
  const flushAll = useCallback(() => {
    for (const e of ref.current) if (e.state === 'waiting') void flush(e.key);
  }, [ref, flush]);
  const reset = useCallback(() => update([]), [update]);

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
      timers.restart(line.key, () => void flush(line.key));
    },
    untap(key: string) {
      const next = untapProduct(ref.current, key);
      if (!next.some((e) => e.key === key)) timers.cancel(key);
      update(next);
    },
    /** A pick from the quantity and notes step: sent at once. */
    async send(
      line: { productId: string; productName: string; price: number; quantity: number; notes: string | null },
      choice: { optionIds: string[]; unitPrice: number; modifierLabels: string[] },
    ): Promise<boolean> {
      const key = newId();
      update([...ref.current, { key, ...line, price: choice.unitPrice, state: 'sending', itemId: null }]);
      const { productId, productName, quantity, notes } = line;
      return settle(key, await pick.current({ productId, productName, quantity, notes, ...choice }));
    },
    markUndone: (key: string) => patchEntry(key, { state: 'undone' }),
  };
}

export type Round = ReturnType<typeof useRound>;
