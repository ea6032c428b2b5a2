import { useEffect, useMemo, useState } from 'react';
import { ArrowLeft } from 'lucide-react';
import type { Product } from '@comanda/contract';
import { CATEGORIES } from '@comanda/domain';
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

export interface PickedProduct {
  productId: string;
  productName: string;
  quantity: number;
  notes: string | null;
}

/** Categories in catalogue order first, then any typed by hand, each only if a product uses it. */
function categoriesOf(products: Product[]): string[] {
  const used = new Set(products.map((p) => p.category));
  return [...CATEGORIES.filter((c) => used.has(c)), ...[...used].filter((c) => !(CATEGORIES as readonly string[]).includes(c)).sort()];
}

const normalize = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/** Search, category chips, then quantity and notes for the chosen product. Stays open to add more. */
export function ProductPickerDialog({
  open,
  busy,
  onClose,
  onPick,
}: {
  open: boolean;
  busy: boolean;
  onClose: () => void;
  onPick: (pick: PickedProduct) => Promise<boolean>;
}) {
  const products = useAvailableProducts(open);
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState<string | null>(null);
  const [selected, setSelected] = useState<Product | null>(null);
  useEffect(() => {
    if (open) {
      setSearch('');
      setCategory(null);
      setSelected(null);
    }
  }, [open]);

  const list = useMemo(() => {
    const q = normalize(search.trim());
    return (products.data ?? [])
      .filter((p) => (category === null || p.category === category) && (q === '' || normalize(`${p.name} ${p.description}`).includes(q)))
      .sort((a, b) => a.name.localeCompare(b.name, 'es'));
  }, [products.data, search, category]);

  return (
    <Dialog open={open} onClose={onClose} title={t.picker.title} variant="sheet" locked={busy} className="sm:max-w-2xl">
      {selected ? (
        <SelectedProduct
          product={selected}
          busy={busy}
          onBack={() => setSelected(null)}
          onAdd={async (quantity, notes) => {
            // Back to the list for the next product; the category chip stays, the search starts over.
            if (await onPick({ productId: selected.id, productName: selected.name, quantity, notes })) {
              setSelected(null);
              setSearch('');
            }
          }}
        />
      ) : (
        <div className="flex flex-col gap-3">
          <SearchInput value={search} onChange={setSearch} placeholder={t.picker.search} label={t.picker.search} />
          {products.data && (
            <div className="flex gap-2 overflow-x-auto pb-1 sm:flex-wrap" role="group" aria-label={t.picker.categories}>
              {[null, ...categoriesOf(products.data)].map((c) => (
                <button
                  key={c ?? 'all'}
                  type="button"
                  aria-pressed={category === c}
                  onClick={() => setCategory(c)}
                  className={cn(
                    'h-10 shrink-0 rounded-full border px-4 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500',
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
          {products.isPending ? (
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
                <li key={p.id}>
                  <button
                    type="button"
                    onClick={() => setSelected(p)}
                    className="flex w-full items-start justify-between gap-3 rounded-lg border border-slate-200 bg-white p-3 text-left hover:border-brand-500 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-500"
                  >
                    <span className="min-w-0">
                      <span className="block font-medium">{p.name}</span>
                      <span className="block text-xs text-slate-500">{p.category}</span>
                    </span>
                    <span className="shrink-0 font-semibold tabular-nums">{money(p.price)}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Dialog>
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
  onAdd: (quantity: number, notes: string | null) => Promise<void>;
}) {
  const [quantity, setQuantity] = useState('1');
  const [notes, setNotes] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    const parsed = parseQuantity(quantity);
    if (!parsed.ok) {
      setError(parsed.error);
      return;
    }
    void onAdd(parsed.quantity, notes.trim() === '' ? null : notes.trim());
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
        </div>
        <Button variant="outline" size="sm" onClick={onBack} disabled={busy}>
          <ArrowLeft className="h-4 w-4" aria-hidden />
          {t.picker.change}
        </Button>
      </div>
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
        {busy ? t.app.loading : `${t.picker.add} · ${money(product.price * (Number(quantity) > 0 ? Math.floor(Number(quantity)) : 1))}`}
      </Button>
    </form>
  );
}
