import { useEffect, useState } from 'react';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useMenuConfig, useSaveMenuConfig } from '../../lib/menu.ts';

/** "Orden del menú": the order of the picker's category chips; each move saves at once. */
export function MenuOrderCard() {
  const config = useMenuConfig();
  const save = useSaveMenuConfig();
  const [order, setOrder] = useState<string[]>([]);
  useEffect(() => {
    if (config.data) setOrder(config.data.categoryOrder);
  }, [config.data]);

  const move = (index: number, delta: -1 | 1) => {
    const next = [...order];
    const [moved] = next.splice(index, 1);
    next.splice(index + delta, 0, moved!);
    const previous = order;
    setOrder(next);
    save.mutate(next, {
      onSuccess: () => toast.success(t.menuPicker.orderSaved, { id: 'menu-order' }),
      onError: (error) => {
        setOrder(previous);
        toast.error(errorMessage(error, t.menuPicker.orderError), { id: 'menu-order' });
      },
    });
  };

  return (
    <Card className="max-w-2xl p-5">
      <h2 className="text-lg font-semibold">{t.menuPicker.orderTitle}</h2>
      <p className="mb-3 text-sm text-slate-600">{t.menuPicker.orderHint}</p>
      <ol className="flex flex-col gap-1" aria-label={t.menuPicker.orderTitle}>
        {order.map((c, i) => (
          <li key={c} className="flex items-center justify-between gap-2 rounded-lg border border-slate-200 px-3 py-1">
            <span className="font-medium">
              <span className="mr-2 text-slate-600 tabular-nums">{i + 1}.</span>
              {c}
            </span>
            <span className="flex gap-1">
              <Button
                variant="ghost"
                size="icon"
                aria-label={t.menuPicker.moveUp(c)}
                disabled={i === 0 || save.isPending}
                onClick={() => move(i, -1)}
              >
                <ArrowUp className="h-4 w-4" aria-hidden />
              </Button>
              <Button
                variant="ghost"
                size="icon"
                aria-label={t.menuPicker.moveDown(c)}
                disabled={i === order.length - 1 || save.isPending}
                onClick={() => move(i, 1)}
              >
                <ArrowDown className="h-4 w-4" aria-hidden />
              </Button>
            </span>
          </li>
        ))}
      </ol>
    </Card>
  );
}
