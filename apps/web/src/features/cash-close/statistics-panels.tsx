import { useState } from 'react';
import type { ShiftStatistics } from '@comanda/contract';
import { Card } from '../../components/ui/card.tsx';
import { Tabs } from '../../components/ui/tabs.tsx';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { BarList, HourChart } from './charts.tsx';

type ProductView = 'quantity' | 'amount';

export function StatisticsPanels({ statistics }: { statistics: ShiftStatistics }) {
  const [view, setView] = useState<ProductView>('quantity');
  const products = view === 'quantity' ? statistics.topProducts : statistics.topProductsByAmount;
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card className="p-4 lg:col-span-2 print:break-inside-avoid">
        <h2 className="mb-3 font-semibold text-slate-900">{t.cashClose.byHour}</h2>
        <HourChart hours={statistics.salesByHour} />
      </Card>
      <Card className="p-4 print:break-inside-avoid">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h2 className="font-semibold text-slate-900">{t.cashClose.topProducts}</h2>
          <div className="print:hidden">
            <Tabs
              label={t.cashClose.topProducts}
              value={view}
              onChange={setView}
              tabs={[
                { value: 'quantity', label: t.cashClose.byQuantity },
                { value: 'amount', label: t.cashClose.byAmount },
              ]}
            />
          </div>
        </div>
        <BarList
          testId="top-products"
          rows={products.map((p) => ({
            key: p.productId,
            label: p.productName,
            value: view === 'quantity' ? p.quantity : p.amount,
            display: view === 'quantity' ? t.cashClose.units(p.quantity) : money(p.amount),
            detail: view === 'quantity' ? money(p.amount) : t.cashClose.units(p.quantity),
          }))}
        />
      </Card>
      <Card className="p-4 print:break-inside-avoid">
        <h2 className="mb-3 font-semibold text-slate-900">{t.cashClose.byWaiter}</h2>
        <BarList
          testId="by-waiter"
          color="bg-sky-500"
          rows={statistics.salesByWaiter.map((w) => ({
            key: w.waiterId ?? 'none',
            label: w.waiterName ?? t.cashClose.noWaiter,
            value: w.total,
            display: money(w.total),
            detail: `${t.cashClose.orders(w.orders)} · ${t.cashClose.totalTips} ${money(w.tips)}`,
          }))}
        />
      </Card>
    </div>
  );
}
