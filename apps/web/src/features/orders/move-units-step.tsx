import { useState } from 'react';
import { Minus, Plus } from 'lucide-react';
import type { Order } from '@comanda/contract';
import { activeItems } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { t } from '../../lib/i18n/es-MX.ts';

const ts = t.tableService;

/** Units to move, line by line, with steppers (0 … the line's quantity); then the target table. */
export function MoveUnitsStep({
  order,
  initial,
  onBack,
  onNext,
}: {
  order: Order;
  /** The counts chosen before going to the table step and back. */
  initial?: Record<string, number> | undefined;
  onBack: () => void;
  onNext: (lines: Record<string, number>) => void;
}) {
  const [chosen, setChosen] = useState<Record<string, number>>(initial ?? {});
  const items = activeItems(order.items);
  const total = Object.values(chosen).reduce((acc, n) => acc + n, 0);
  const set = (id: string, n: number) => setChosen((c) => ({ ...c, [id]: n }));

  if (items.length === 0) return <p className="py-6 text-center text-slate-500">{ts.noItems}</p>;
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">{ts.chooseUnits}</p>
      <ul className="divide-y divide-slate-100">
        {items.map((item) => {
          const n = chosen[item.id] ?? 0;
          return (
            <li key={item.id} className="flex items-center gap-2 py-2" data-testid="move-line">
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium">{item.productName}</p>
                <p className="text-xs text-slate-500">
                  {ts.units(item.quantity)}
                  {item.notes ? ` · ${item.notes}` : ''}
                </p>
              </div>
              <Button
                variant="outline"
                size="icon"
                aria-label={ts.less(item.productName)}
                disabled={n === 0}
                onClick={() => set(item.id, n - 1)}
              >
                <Minus className="h-4 w-4" aria-hidden />
              </Button>
              <span className="w-8 text-center text-lg font-semibold tabular-nums" data-testid="move-count">
                {n}
              </span>
              <Button
                variant="outline"
                size="icon"
                aria-label={ts.more(item.productName)}
                disabled={n >= item.quantity}
                onClick={() => set(item.id, n + 1)}
              >
                <Plus className="h-4 w-4" aria-hidden />
              </Button>
              <Button variant="ghost" size="sm" disabled={n === item.quantity} onClick={() => set(item.id, item.quantity)}>
                {ts.all}
              </Button>
            </li>
          );
        })}
      </ul>
      <div className="flex items-center justify-between gap-2 pt-2">
        <Button variant="ghost" onClick={onBack}>
          {ts.back}
        </Button>
        <Button variant="accent" disabled={total === 0} onClick={() => onNext(chosen)}>
          {ts.next} · {ts.units(total)}
        </Button>
      </div>
    </div>
  );
}
