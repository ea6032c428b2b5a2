import { useActivePromotions } from '../lib/promotions.ts';
import { money } from '../lib/format.ts';
import { t } from '../lib/i18n/es-MX.ts';
import { Badge } from './ui/badge.tsx';

/** Picker row: "PROMO 2x1 · $55.00" when a promotion prices the product now (decision 0028). */
export function PromoBadge({ productId }: { productId: string }) {
  const promo = useActivePromotions().data?.get(productId);
  if (!promo) return null;
  return (
    <Badge tone="violet" className="mt-1" data-testid="promo-badge" title={promo.name}>
      {t.promotions.badge} {t.promotions.promoPrice(promo.label, money(promo.price))}
    </Badge>
  );
}

/** Order line: "PROMO <name>" on an item a promotion priced, with the list price it replaced. */
export function PromoTag({ item }: { item: { promotionName?: string | null | undefined; listPrice?: number | null | undefined } }) {
  if (!item.promotionName) return null;
  return (
    <Badge tone="violet" data-testid="promo-tag" title={item.listPrice != null ? t.promotions.listPrice(money(item.listPrice)) : undefined}>
      {t.promotions.badge} {item.promotionName}
    </Badge>
  );
}
