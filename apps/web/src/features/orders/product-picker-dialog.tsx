import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ArrowLeft, Ban, Minus, NotebookPen, Plus, Undo2 } from 'lucide-react';
import { toast } from 'sonner';
import type { ModifierGroup, Product } from '@comanda/contract';
import { pickerCategories } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Dialog } from '../../components/ui/dialog.tsx';
import { EmptyState, ErrorState } from '../../components/ui/empty-state.tsx';
import { Label, Textarea } from '../../components/ui/input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useAvailableProducts } from './order-api.ts';
import { parseQuantity, QuantityStepper } from './quantity-dialog.tsx';
import { SearchInput } from '../../components/ui/search-input.tsx';
import { PromoBadge } from '../../components/promo-badge.tsx';
import { errorMessage } from '../../lib/api.ts';
import { newId } from '../../lib/ids.ts';
import { useMenuConfig, useSetAvailability, useTopSellers } from '../../lib/menu.ts';
import { useSession } from '../../lib/session.ts';
import { hasOptions, offersOptions } from './has-options.ts';
import { usePickerModifierGroups } from './modifiers-api.ts';
import { filterPickerProducts, tapProduct, topSellerProducts, unitsInRound, untapProduct, type RoundEntry } from './picker-model.ts';
import { useProductModifiers } from './use-product-modifiers.tsx';

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
const NO_GROUPS: ModifierGroup[] = [];

/**
 * Search (accents ignored), the admin's category order, "Más vendidos" on top, one tap adds a
 * simple product (taps in a row add up), "Nota" or a product with options opens the quantity and
 * notes step, and "Esta ronda" lists what this visit added with Deshacer.
 */
export function ProductPickerDialog({
  open,
  busy,
  onClose,
  onPick,
  onUndo,
}: {
  open: boolean;
  busy: boolean;
  onClose: () => void;
  onPick: (pick: PickedProduct) => Promise<PickAnswer | null>;
  /** Voids a line this round sent (the order screen's void path); resolves true when it was voided. */
  onUndo: (itemId: string) => Promise<boolean>;
}) {
  const products = useAvailableProducts(open);
  const modifierGroups = usePickerModifierGroups(open).data ?? NO_GROUPS;
  const role = useSession().data?.role;
  const isAdmin = role === 'admin';
  const menu = useMenuConfig(open);
  const top = useTopSellers(open && (role === 'admin' || role === 'waiter'));
  const setAvailability = useSetAvailability();
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState<string | null>(null);
  const [selected, setSelected] = useState<Product | null>(null);
  const round = useRound(onPick);
  const { flushAll, reset } = round;
  useEffect(() => {
    if (open) {
      setSearch('');
      setCategory(null);
      setSelected(null);
      reset();
    } else flushAll();
  }, [open, flushAll, reset]);

  const all = useMemo(() => products.data ?? [], [products.data]);
  const list = useMemo(() => filterPickerProducts(all, search, category), [all, search, category]);
  const chips = useMemo(
    () =>
      pickerCategories(
        menu.data?.categoryOrder,
        all.map((p) => p.category),
      ),
    [menu.data, all],
  );
  const topList = search.trim() === '' && category === null ? topSellerProducts(all, top.data) : [];

  const openStep = (p: Product) => {
    flushAll();
    setSelected(p);
  };
  const choose = (p: Product) => (hasOptions(p, modifierGroups) ? openStep(p) : round.tap(p));
  const markSoldOut = (p: Product) =>
    setAvailability.mutate(
      { id: p.id, available: false },
      {
        onSuccess: () => toast.success(t.menuPicker.markedSoldOut(p.name), { id: 'picker-sold-out' }),
        onError: (error) => toast.error(errorMessage(error, t.menuPicker.soldOutError), { id: 'picker-sold-out' }),
      },
    );

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t.picker.title}
      variant="sheet"
      locked={busy && selected !== null}
      className="sm:max-w-2xl"
    >
      {selected ? (
        <SelectedProduct
          product={selected}
          busy={busy}
          onBack={() => setSelected(null)}
          onAdd={async (quantity, notes, choice) => {
            // Back to the list for the next product; the category chip stays, the search starts over.
            if (await round.send({ productId: selected.id, productName: selected.name, price: selected.price, quantity, notes }, choice)) {
              setSelected(null);
              setSearch('');
            }
          }}
        />
      ) : (
        <div className="flex flex-col gap-3">
          <SearchInput value={search} onChange={setSearch} placeholder={t.picker.search} label={t.picker.search} />
          {products.data && (
            // Chips wrap onto a second line: on a phone none sits off-screen.
            <div className="flex flex-wrap gap-2" role="group" aria-label={t.picker.categories}>
              {[null, ...chips].map((c) => (
                <button
                  key={c ?? 'all'}
                  type="button"
                  aria-pressed={category === c}
                  onClick={() => setCategory(c)}
                  className={cn(
                    'h-11 shrink-0 rounded-full border px-4 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500',
                    category === c
                      ? 'border-slate-900 bg-slate-900 text-white'
                      : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-100',
                  )}
                >
                  {c ?? t.picker.all}
                </button>
              ))}
            </div>
          )}
          {topList.length > 0 && (
            <section aria-label={t.menuPicker.topSellers}>
              <h3 className="mb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase">{t.menuPicker.topSellers}</h3>
              <ul className="flex flex-wrap gap-2">
                {topList.map((p) => (
                  <li key={p.id}>
                    <button
                      type="button"
                      onClick={() => choose(p)}
                      className="flex min-h-11 items-center gap-2 rounded-lg border border-brand-500 bg-brand-50 px-3 text-sm font-medium hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-500"
                    >
                      {p.name}
                      <Badge n={round.units(p.id)} />
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          )}
          {products.isPending && products.fetchStatus === 'paused' ? (
            <EmptyState title={t.offline.menuNotOnDevice} />
          ) : products.isPending ? (
            <Spinner />
          ) : products.isError ? (
            <ErrorState message={t.picker.loadError} onRetry={() => void products.refetch()} />
          ) : products.data.length === 0 ? (
            <EmptyState title={t.picker.noProducts} />
          ) : list.length === 0 ? (
            <EmptyState title={t.picker.noMatches} />
          ) : (
            <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2" aria-label={t.picker.choose}>
              {list.map((p) => (
                <li key={p.id} className="flex items-stretch gap-2">
                  <button
                    type="button"
                    onClick={() => choose(p)}
                    className="flex min-h-11 min-w-0 flex-1 items-center justify-between gap-2 rounded-lg border border-slate-200 bg-white p-3 text-left hover:border-brand-500 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-500"
                  >
                    <span className="min-w-0">
                      <span className="block font-medium">{p.name}</span>
                      <span className="block text-xs text-slate-600">
                        {p.category}
                        {offersOptions(p, modifierGroups) ? ` · ${t.menuPicker.withOptions}` : ''}
                      </span>
                      <PromoBadge productId={p.id} />
                    </span>
                    <span className="flex shrink-0 items-center gap-2">
                      <Badge n={round.units(p.id)} />
                      <span className="font-semibold tabular-nums">{money(p.price)}</span>
                      {!hasOptions(p, modifierGroups) && <Plus className="h-4 w-4 text-slate-500" aria-hidden />}
                    </span>
                  </button>
                  {!hasOptions(p, modifierGroups) && (
                    <Button
                      variant="outline"
                      size="icon"
                      className="h-auto min-h-11"
                      aria-label={t.menuPicker.noteLabel(p.name)}
                      onClick={() => openStep(p)}
                    >
                      <NotebookPen className="h-4 w-4" aria-hidden />
                    </Button>
                  )}
                  {isAdmin && (
                    <Button
                      variant="outline"
                      size="icon"
                      className="h-auto min-h-11 text-rose-700"
                      aria-label={t.menuPicker.markSoldOut(p.name)}
                      title={t.menuPicker.soldOut}
                      onClick={() => markSoldOut(p)}
                    >
                      <Ban className="h-4 w-4" aria-hidden />
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          )}
          <RoundList round={round} onUndo={onUndo} />
        </div>
      )}
    </Dialog>
  );
}

function Badge({ n }: { n: number }) {
  if (n === 0) return null;
  return (
    <span className="rounded-full bg-slate-900 px-2 text-xs font-bold text-white tabular-nums" aria-label={t.menuPicker.inRound(n)}>
      ×{n}
    </span>
  );
}

/**
 * This visit's lines. Taps on a simple product wait TAP_SETTLE_MS for more taps of the same
 * product, then go as one pick (one add-item, or one outbox entry offline); closing the picker
 * sends whatever still waits.
 */
function useRound(onPick: (pick: PickedProduct) => Promise<PickAnswer | null>) {
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

type Round = ReturnType<typeof useRound>;

function RoundList({ round, onUndo }: { round: Round; onUndo: (itemId: string) => Promise<boolean> }) {
  const shown = round.entries.filter((e) => e.state !== 'undone');
  return (
    <section aria-label={t.menuPicker.round} className="sticky bottom-0 -mx-1 border-t border-slate-200 bg-white px-1 pt-2">
      <h3 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{t.menuPicker.round}</h3>
      {shown.length === 0 ? (
        <p className="py-1 text-sm text-slate-600">{t.menuPicker.roundEmpty}</p>
      ) : (
        <ul className="flex max-h-40 flex-col gap-2 overflow-y-auto py-1">
          {shown.map((e) => (
            <li key={e.key} className="flex items-center justify-between gap-2 text-sm" data-testid="round-line">
              <span className="min-w-0">
                <span className="font-semibold tabular-nums">{e.quantity} × </span>
                {e.productName}
                {e.notes ? <span className="text-slate-600"> · {e.notes}</span> : null}
                {e.state === 'sending' && <span className="text-slate-600"> · {t.menuPicker.sending}</span>}
                {e.state === 'queued' && <span className="text-amber-800"> · {t.menuPicker.queued}</span>}
              </span>
              {e.state === 'waiting' ? (
                <Button variant="outline" size="icon" aria-label={t.menuPicker.removeOne(e.productName)} onClick={() => round.untap(e.key)}>
                  <Minus className="h-4 w-4" aria-hidden />
                </Button>
              ) : e.state === 'sent' && e.itemId ? (
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={t.menuPicker.undoLabel(e.productName)}
                  onClick={() => {
                    const itemId = e.itemId!;
                    void onUndo(itemId).then((undone) => undone && round.markUndone(e.key));
                  }}
                >
                  <Undo2 className="h-4 w-4" aria-hidden />
                  {t.menuPicker.undo}
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function SelectedProduct({
  product,
  busy,
  onBack,
  onAdd,
}: {
  product: Product;
  busy: boolean;
  onBack: () => void;
  onAdd: (
    quantity: number,
    notes: string | null,
    choice: Pick<PickedProduct, 'optionIds' | 'unitPrice' | 'modifierLabels'>,
  ) => Promise<void>;
}) {
  const [quantity, setQuantity] = useState('1');
  const [notes, setNotes] = useState('');
  const [error, setError] = useState<string | null>(null);
  const modifiers = useProductModifiers(product);
  const submit = () => {
    const parsed = parseQuantity(quantity);
    if (!parsed.ok) {
      setError(parsed.error);
      return;
    }
    const choice = modifiers.check();
    if (!choice) return;
    void onAdd(parsed.quantity, notes.trim() === '' ? null : notes.trim(), choice);
  };
  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="flex items-start justify-between gap-3 rounded-lg bg-slate-50 p-3">
        <div className="min-w-0">
          <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">{t.picker.selected}</p>
          <p className="font-semibold">{product.name}</p>
          <p className="text-sm text-slate-500">
            {product.category} · {money(product.price)}
          </p>
          <PromoBadge productId={product.id} />
        </div>
        <Button variant="outline" size="sm" onClick={onBack} disabled={busy}>
          <ArrowLeft className="h-4 w-4" aria-hidden />
          {t.picker.change}
        </Button>
      </div>
      {modifiers.element}
      <div>
        <Label>{t.picker.quantity}</Label>
        <QuantityStepper
          value={quantity}
          onChange={(v) => {
            setError(null);
            setQuantity(v);
          }}
        />
        <p role="alert" className="mt-1 min-h-5 text-sm text-rose-700">
          {error}
        </p>
      </div>
      <div>
        <Label htmlFor="picker-notes">{t.picker.notes}</Label>
        <Textarea
          id="picker-notes"
          rows={2}
          maxLength={300}
          value={notes}
          onChange={(e) => setNotes(e.target.value)}
          placeholder={t.picker.notesPlaceholder}
        />
      </div>
      <Button type="submit" variant="accent" size="lg" disabled={busy}>
        {busy
          ? t.app.loading
          : `${t.picker.add} · ${money(modifiers.unitPrice * (Number(quantity) > 0 ? Math.floor(Number(quantity)) : 1))}`}
      </Button>
    </form>
  );
}
