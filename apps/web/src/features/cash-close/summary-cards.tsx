import type { ReactNode } from 'react';
import { Banknote, CreditCard, Landmark, Package, Percent, Receipt, ShoppingBag, TrendingUp, Wallet } from 'lucide-react';
import type { ShiftSummary } from '@comanda/contract';
import { ShiftFolios } from './shift-folios.tsx';
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS } from '@comanda/domain';
import { Card } from '../../components/ui/card.tsx';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { percent } from './report-format.ts';

function Stat({ label, value, icon, hint, strong }: { label: string; value: string; icon: ReactNode; hint?: string; strong?: boolean }) {
  // The headline figure is dark; Card's own white background would fight a dark class, so a plain box.
  const box = strong
    ? 'col-span-2 rounded-xl bg-slate-900 p-4 text-white shadow-sm'
    : 'rounded-xl border border-slate-200 bg-white p-4 shadow-sm';
  return (
    <div className={box}>
      <div className={`flex items-center gap-2 text-sm ${strong ? 'text-slate-300' : 'text-slate-500'}`}>
        {icon}
        <span>{label}</span>
      </div>
      <p className={`mt-1 font-bold tabular-nums ${strong ? 'text-3xl text-brand-500' : 'text-2xl text-slate-900'}`}>{value}</p>
      {hint && <p className="text-xs text-slate-600">{hint}</p>}
    </div>
  );
}

const icon = 'h-4 w-4';

export function SummaryCards({ summary }: { summary: ShiftSummary }) {
  const s = summary;
  const pct = `${s.averageTipPercent.toLocaleString('es-MX', { maximumFractionDigits: 2 })}%`;
  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-4" data-testid="summary-cards">
      <Stat strong label={t.cashClose.totalSales} value={money(s.totalSales)} icon={<TrendingUp className={icon} aria-hidden />} />
      <Stat label={t.cashClose.totalOrders} value={String(s.totalOrders)} icon={<Receipt className={icon} aria-hidden />} />
      <Stat label={t.cashClose.totalItems} value={String(s.totalItems)} icon={<ShoppingBag className={icon} aria-hidden />} />
      <Stat label={t.cashClose.averageTicket} value={money(s.averageOrderValue)} icon={<Package className={icon} aria-hidden />} />
      <Stat label={t.cashClose.totalSubtotal} value={money(s.totalSubtotal)} icon={<Wallet className={icon} aria-hidden />} />
      <Stat label={t.cashClose.totalTips} value={money(s.totalTips)} icon={<Banknote className={icon} aria-hidden />} />
      <Stat label={t.cashClose.averageTip} value={pct} hint={t.cashClose.averageTipHint} icon={<Percent className={icon} aria-hidden />} />
    </div>
  );
}

const METHOD_ICON = { efectivo: Banknote, tarjeta: CreditCard, transferencia: Landmark } as const;
const METHOD_COLOR = { efectivo: 'bg-emerald-500', tarjeta: 'bg-sky-500', transferencia: 'bg-violet-500' } as const;

export function MethodTotals({ summary }: { summary: ShiftSummary }) {
  return (
    <Card className="p-4">
      <h2 className="mb-3 font-semibold text-slate-900">{t.cashClose.methods}</h2>
      <ul className="grid gap-4 sm:grid-cols-3">
        {PAYMENT_METHODS.map((method) => {
          const Icon = METHOD_ICON[method];
          const amount = summary.paymentMethods[method];
          const share = percent(amount, summary.totalSales);
          return (
            <li key={method} data-testid={`method-${method}`}>
              <div className="flex items-center justify-between text-sm text-slate-600">
                <span className="flex items-center gap-2">
                  <Icon className="h-4 w-4" aria-hidden />
                  {PAYMENT_METHOD_LABELS[method]}
                </span>
                <span className="text-slate-600">{share}%</span>
              </div>
              <p className="text-xl font-bold tabular-nums text-slate-900">{money(amount)}</p>
              <div className="mt-1 h-2 rounded-full bg-slate-100 print:border print:border-slate-300">
                <div className={`h-2 rounded-full ${METHOD_COLOR[method]}`} style={{ width: `${share}%` }} />
              </div>
            </li>
          );
        })}
      </ul>
      <ShiftFolios summary={summary} />
    </Card>
  );
}
