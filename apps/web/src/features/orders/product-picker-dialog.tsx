import { Ban, Minus, NotebookPen, Plus, Undo2 } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Dialog } from '../../components/ui/dialog.tsx';
import { EmptyState, ErrorState } from '../../components/ui/empty-state.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { SearchInput } from '../../components/ui/search-input.tsx';
import { PromoBadge } from '../../components/promo-badge.tsx';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { hasOptions, offersOptions } from './has-options.ts';
import { SelectedProduct } from './picker-selected-product.tsx';
import { useProductPicker, type ProductPicker } from './use-product-picker.ts';
import type { PickAnswer, PickedProduct } from './use-round.ts';

export { TAP_SETTLE_MS, type PickAnswer, type PickedProduct } from './use-round.ts';

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
  const p = useProductPicker(open, onPick, onUndo);
  const { selected } = p;
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
          onBack={() => p.setSelected(null)}
          onAdd={(quantity, notes, choice) => p.addSelected(selected, quantity, notes, choice)}
        />
      ) : (
        <div className="flex flex-col gap-3">
          <SearchInput value={p.search} onChange={p.setSearch} placeholder={t.picker.search} label={t.picker.search} />
          {p.products.data && <CategoryChips p={p} />}
          {p.topList.length > 0 && <TopSellers p={p} />}
          <ProductList p={p} />
          <RoundList p={p} />
        </div>
      )}
    </Dialog>
  );
}

/** Chips wrap onto a second line: on a phone none sits off-screen. */
function CategoryChips({ p }: { p: ProductPicker }) {
  return (
    <div className="flex flex-wrap gap-2" role="group" aria-label={t.picker.categories}>
      {[null, ...p.chips].map((c) => (
        <button
          key={c ?? 'all'}
          type="button"
          aria-pressed={p.category === c}
          onClick={() => p.setCategory(c)}
          className={cn(
            'h-11 shrink-0 rounded-full border px-4 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500',
            p.category === c ? 'border-slate-900 bg-slate-900 text-white' : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-100',
          )}
        >
          {c ?? t.picker.all}
        </button>
      ))}
    </div>
  );
}

function TopSellers({ p }: { p: ProductPicker }) {
  return (
    <section aria-label={t.menuPicker.topSellers}>
      <h3 className="mb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase">{t.menuPicker.topSellers}</h3>
      <ul className="flex flex-wrap gap-2">
        {p.topList.map((product) => (
          <li key={product.id}>
            <button
              type="button"
              onClick={() => p.choose(product)}
              className="flex min-h-11 items-center gap-2 rounded-lg border border-brand-500 bg-brand-50 px-3 text-sm font-medium hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-500"
            >
              {product.name}
              <Badge n={p.round.units(product.id)} />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function ProductList({ p }: { p: ProductPicker }) {
  const { products, list, modifierGroups } = p;
  if (products.isPending && products.fetchStatus === 'paused') return <EmptyState title={t.offline.menuNotOnDevice} />;
  if (products.isPending) return <Spinner />;
  if (products.isError) return <ErrorState message={t.picker.loadError} onRetry={() => void products.refetch()} />;
  if (products.data.length === 0) return <EmptyState title={t.picker.noProducts} />;
  if (list.length === 0) return <EmptyState title={t.picker.noMatches} />;
  return (
    <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2" aria-label={t.picker.choose}>
      {list.map((product) => (
        <li key={product.id} className="flex items-stretch gap-2">
          <button
            type="button"
            onClick={() => p.choose(product)}
            className="flex min-h-11 min-w-0 flex-1 items-center justify-between gap-2 rounded-lg border border-slate-200 bg-white p-3 text-left hover:border-brand-500 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-500"
          >
            <span className="min-w-0">
              <span className="block font-medium">{product.name}</span>
              <span className="block text-xs text-slate-600">
                {product.category}
                {offersOptions(product, modifierGroups) ? ` · ${t.menuPicker.withOptions}` : ''}
              </span>
              <PromoBadge productId={product.id} />
            </span>
            <span className="flex shrink-0 items-center gap-2">
              <Badge n={p.round.units(product.id)} />
              <span className="font-semibold tabular-nums">{money(product.price)}</span>
              {!hasOptions(product, modifierGroups) && <Plus className="h-4 w-4 text-slate-500" aria-hidden />}
            </span>
          </button>
          {!hasOptions(product, modifierGroups) && (
            <Button
              variant="outline"
              size="icon"
              className="h-auto min-h-11"
              aria-label={t.menuPicker.noteLabel(product.name)}
              onClick={() => p.openStep(product)}
            >
              <NotebookPen className="h-4 w-4" aria-hidden />
            </Button>
          )}
          {p.isAdmin && (
            <Button
              variant="outline"
              size="icon"
              className="h-auto min-h-11 text-rose-700"
              aria-label={t.menuPicker.markSoldOut(product.name)}
              title={t.menuPicker.soldOut}
              onClick={() => p.markSoldOut(product)}
            >
              <Ban className="h-4 w-4" aria-hidden />
            </Button>
          )}
        </li>
      ))}
    </ul>
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

function RoundList({ p }: { p: ProductPicker }) {
  const shown = p.roundLines;
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
                <Button
                  variant="outline"
                  size="icon"
                  aria-label={t.menuPicker.removeOne(e.productName)}
                  onClick={() => p.round.untap(e.key)}
                >
                  <Minus className="h-4 w-4" aria-hidden />
                </Button>
              ) : e.state === 'sent' && e.itemId ? (
                <Button variant="outline" size="sm" aria-label={t.menuPicker.undoLabel(e.productName)} onClick={() => p.undo(e)}>
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
