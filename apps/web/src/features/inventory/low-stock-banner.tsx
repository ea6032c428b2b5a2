import { INV } from './texts.ts';
import { useLowStock } from './inventory-api.ts';

/** The low-stock alert shown on the admin's screens. */
export function LowStockBanner() {
  const low = useLowStock();
  const n = low.data?.items.length ?? 0;
  if (n === 0) return null;
  return (
    <div role="alert" className="rounded-lg bg-amber-100 px-3 py-2 text-sm font-medium text-amber-900" data-testid="low-stock">
      {INV.lowStock(n)}: {low.data!.items.map((i) => i.name).join(', ')}
    </div>
  );
}
