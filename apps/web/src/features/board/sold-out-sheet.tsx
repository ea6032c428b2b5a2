import { useState } from 'react';
import { Ban } from 'lucide-react';
import { toast } from 'sonner';
import { mayMarkAvailability, stationOf, type Station } from '@comanda/domain';
import { Dialog } from '../../components/ui/dialog.tsx';
import { EmptyState, ErrorState } from '../../components/ui/empty-state.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { cn } from '../../components/ui/cn.ts';
import { errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useCatalogue, useSetAvailability } from '../../lib/menu.ts';

/**
 * "Agotados" on a board: the station's own products, each one tap from agotado and
 * back. The server checks the station again (the kitchen marks only kitchen products).
 */
export function SoldOutButton({ role, stations }: { role: string | undefined; stations: readonly Station[] }) {
  const [open, setOpen] = useState(false);
  const mine = stations.filter((s) => mayMarkAvailability(role, s === 'barra' ? 'Bebida' : 'Comida'));
  const catalogue = useCatalogue(open);
  const setAvailability = useSetAvailability();
  if (mine.length === 0) return null;
  const products = (catalogue.data ?? []).filter((p) => mine.includes(stationOf(p.category)) && mayMarkAvailability(role, p.category));

  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="flex h-12 items-center gap-2 rounded-xl border border-slate-300 bg-white px-4 text-base font-bold text-slate-800 shadow-sm"
      >
        <Ban className="h-5 w-5" aria-hidden />
        {t.menuPicker.boardButton}
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} title={t.menuPicker.boardTitle} variant="sheet" className="sm:max-w-2xl">
        <p className="mb-3 text-sm text-slate-600">{t.menuPicker.boardHint}</p>
        {catalogue.isPending ? (
          <Spinner />
        ) : catalogue.isError ? (
          <ErrorState message={t.picker.loadError} onRetry={() => void catalogue.refetch()} />
        ) : products.length === 0 ? (
          <EmptyState title={t.menuPicker.noStationProducts} />
        ) : (
          <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2" aria-label={t.menuPicker.boardTitle}>
            {products.map((p) => (
              <li key={p.id}>
                <button
                  type="button"
                  aria-pressed={!p.available}
                  disabled={setAvailability.isPending && setAvailability.variables?.id === p.id}
                  onClick={() =>
                    setAvailability.mutate(
                      { id: p.id, available: !p.available },
                      {
                        onSuccess: () =>
                          toast.success(p.available ? t.menuPicker.markedSoldOut(p.name) : t.menuPicker.markedAvailable(p.name), {
                            id: 'board-sold-out',
                          }),
                        onError: (error) => toast.error(errorMessage(error, t.menuPicker.soldOutError), { id: 'board-sold-out' }),
                      },
                    )
                  }
                  className={cn(
                    'flex min-h-12 w-full items-center justify-between gap-3 rounded-lg border p-3 text-left font-medium focus-visible:outline-2 focus-visible:outline-brand-500',
                    p.available ? 'border-slate-200 bg-white text-slate-900' : 'border-rose-300 bg-rose-50 text-rose-900',
                  )}
                >
                  <span className="min-w-0">
                    <span className="block">{p.name}</span>
                    <span className="block text-xs text-slate-600">{p.category}</span>
                  </span>
                  <span
                    className={cn(
                      'shrink-0 rounded-full px-3 py-1 text-sm font-bold',
                      p.available ? 'bg-emerald-100 text-emerald-900' : 'bg-rose-700 text-white',
                    )}
                  >
                    {p.available ? t.menuPicker.available : t.menuPicker.unavailable}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </Dialog>
    </>
  );
}
