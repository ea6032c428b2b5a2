import type { ComponentType } from 'react';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import type { TicketFigures } from './ticket-figures.ts';

/**
 * The "Descuentos" and "Cortesías" rows under the subtotal (checkout summary, browser ticket,
 * tickets history), shown only when the order has them, as negative amounts.
 */
export function TicketAdjustmentRows({
  figures,
  Row,
}: {
  figures: Pick<TicketFigures, 'discount' | 'comp' | 'sharedOut' | 'shareAmount'>;
  Row: ComponentType<{ label: string; value: string }>;
}) {
  return (
    <>
      {(figures.discount ?? 0) > 0 && <Row label={t.adjustments.discounts} value={`-${money(figures.discount!)}`} />}
      {(figures.comp ?? 0) > 0 && <Row label={t.adjustments.comps} value={`-${money(figures.comp!)}`} />}
      {(figures.sharedOut ?? 0) > 0 && <Row label={t.equalShares.sharedOut} value={`-${money(figures.sharedOut!)}`} />}
      {(figures.shareAmount ?? 0) > 0 && <Row label={t.equalShares.shareAmount} value={money(figures.shareAmount!)} />}
    </>
  );
}
