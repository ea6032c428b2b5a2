import { SPLIT_LABEL } from '@comanda/domain';
import { Card } from '../../components/ui/card.tsx';
import { percentLabel } from '../../components/ticket/ticket-figures.ts';
import type { TicketFigures } from '../../components/ticket/ticket-figures.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { TicketAdjustmentRows } from '../../components/ticket/ticket-adjustments.tsx';

/** The figures the customer pays; the server recomputes them from the items when closing. */
export function SummaryCard({ figures, itemCount, className }: { figures: TicketFigures; itemCount: number; className?: string }) {
  return (
    <Card className={className}>
      <div className="space-y-1 p-3 text-sm lg:p-4">
        <div className="flex justify-between text-slate-600">
          <span>
            {t.checkout.subtotal} · {t.checkout.items(itemCount)}
          </span>
          <span className="tabular-nums">{money(figures.subtotal)}</span>
        </div>
        <TicketAdjustmentRows figures={figures} Row={SummaryRow} />
        <div className="flex justify-between text-slate-600">
          <span>
            {t.checkout.tip} ({percentLabel(figures.tipBps)})
          </span>
          <span className="tabular-nums">{money(figures.tip)}</span>
        </div>
        <div className="flex items-baseline justify-between pt-1">
          <span className="text-base font-semibold">{t.checkout.total}</span>
          <span className="text-2xl font-bold tabular-nums lg:text-3xl" data-testid="checkout-total">
            {money(figures.total)}
          </span>
        </div>
        <div className="flex justify-between text-slate-600">
          <span>
            {t.checkout.perGuest} ({figures.peopleCount})
          </span>
          <span className="tabular-nums">{money(figures.perPerson)}</span>
        </div>
        {figures.split && (
          <div className="flex justify-between text-slate-600" data-testid="summary-split">
            <span>{SPLIT_LABEL(figures.split.count)}</span>
            <span className="tabular-nums">{money(figures.split.each)}</span>
          </div>
        )}
      </div>
    </Card>
  );
}

function SummaryRow({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between text-slate-600">
      <span>{label}</span>
      <span className="tabular-nums">{value}</span>
    </div>
  );
}
