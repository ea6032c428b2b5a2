import { Plus, ShoppingCart } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { t } from '../../lib/i18n/es-MX.ts';

/** 'Orden Vacía': shown while the order has no item that counts, with the way to add one. */
export function EmptyOrder({ onAdd, disabled }: { onAdd: () => void; disabled?: boolean }) {
  return (
    <div className="flex flex-col items-center gap-4 rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center">
      <ShoppingCart className="h-10 w-10 text-slate-400" aria-hidden />
      <h2 className="text-lg font-semibold">{t.order.empty}</h2>
      <ol className="space-y-2 text-left text-sm text-slate-600">
        {t.order.emptySteps.map((step, i) => (
          <li key={step} className="flex items-start gap-2">
            <span className="flex h-5 w-5 shrink-0 items-center justify-center rounded-full bg-brand-100 text-xs font-bold text-brand-700">
              {i + 1}
            </span>
            {step}
          </li>
        ))}
      </ol>
      <Button variant="accent" onClick={onAdd} disabled={disabled}>
        <Plus className="h-4 w-4" aria-hidden />
        {t.order.addItems}
      </Button>
    </div>
  );
}
