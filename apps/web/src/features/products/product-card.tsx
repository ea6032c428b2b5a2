import { useEffect, useState } from 'react';
import { ImageOff, Pencil, Trash2 } from 'lucide-react';
import { stationOf } from '@comanda/domain';
import type { Product } from '@comanda/contract';
import { Card } from '../../components/ui/card.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';

export function ProductCard({
  product,
  onEdit,
  onDelete,
  onToggle,
  toggling,
}: {
  product: Product;
  onEdit: () => void;
  onDelete: () => void;
  onToggle: (available: boolean) => void;
  toggling: boolean;
}) {
  const [imageFailed, setImageFailed] = useState(false);
  // The switch moves in the click itself; the cached product (updated a tick later, or rolled
  // back on a refusal) takes over once the request settles.
  const [pending, setPending] = useState<boolean | null>(null);
  useEffect(() => {
    if (!toggling) setPending(null);
  }, [toggling]);
  const checked = pending ?? product.available;
  const bar = stationOf(product.category) === 'barra';
  return (
    <Card data-testid="product-card" className={cn('flex flex-col overflow-hidden', !product.available && 'opacity-70')}>
      {product.imageUrl && (
        <div className="h-32 bg-slate-100">
          {imageFailed ? (
            <div className="flex h-full items-center justify-center text-slate-400">
              <ImageOff className="h-6 w-6" aria-hidden />
            </div>
          ) : (
            <img src={product.imageUrl} alt="" loading="lazy" className="h-full w-full object-cover" onError={() => setImageFailed(true)} />
          )}
        </div>
      )}
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex items-start justify-between gap-2">
          <h3 className="font-semibold leading-tight text-slate-900">{product.name}</h3>
          <span className="shrink-0 font-bold tabular-nums text-slate-900">{money(product.price)}</span>
        </div>
        <div className="flex flex-wrap gap-1.5">
          <Badge tone={bar ? 'violet' : 'warning'}>{product.category}</Badge>
          {!product.available && <Badge tone="danger">{t.products.unavailable}</Badge>}
        </div>
        {product.description && <p className="line-clamp-2 text-sm text-slate-600">{product.description}</p>}
        <div className="mt-auto flex flex-wrap items-center justify-between gap-2 pt-2">
          <label className="flex min-h-11 cursor-pointer items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              role="switch"
              aria-label={`${t.products.available}: ${product.name}`}
              checked={checked}
              disabled={toggling}
              onChange={(e) => {
                setPending(e.target.checked);
                onToggle(e.target.checked);
              }}
              className="h-4 w-4 accent-emerald-600"
            />
            {t.products.available}
          </label>
          <div className="flex gap-1">
            <Button variant="outline" size="sm" onClick={onEdit} aria-label={`${t.products.edit} ${product.name}`}>
              <Pencil className="h-3.5 w-3.5" aria-hidden />
              {t.products.edit}
            </Button>
            <Button
              variant="ghost"
              size="sm"
              onClick={onDelete}
              aria-label={`${t.products.remove} ${product.name}`}
              className="text-rose-700 hover:bg-rose-50"
            >
              <Trash2 className="h-3.5 w-3.5" aria-hidden />
              {t.products.remove}
            </Button>
          </div>
        </div>
      </div>
    </Card>
  );
}
