import { useState } from 'react';
import { BarChart3, Download, Printer } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { EmptyState, ErrorState } from '../../components/ui/empty-state.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { exportCsvUrl, useCashClose } from './cash-close-api.ts';
import { OutsideNotice } from './outside-notice.tsx';
import { DrawerCortes } from './drawer-cortes.tsx';
import { AdjustmentsPanel } from './adjustments-panel.tsx';
import { PromotionsPanel } from './promotions-panel.tsx';
import { CancellationsPanel } from './cancellations-panel.tsx';
import { shiftDateTime } from '../../lib/dates.ts';
import { StatisticsPanels } from './statistics-panels.tsx';
import { MethodTotals, SummaryCards } from './summary-cards.tsx';
import { TaxTotalsCard } from '../../components/ticket/tax-summary.tsx';

// The report prints on a regular page, not the 80 mm receipt of index.css: only this screen's
// report is shown, full width, without the app's navigation or buttons.
const REPORT_PRINT = `@media print {
  @page { size: auto; margin: 12mm; }
  .cash-close-report, .cash-close-report * { visibility: visible; }
  .cash-close-report { position: absolute; left: 0; top: 0; width: 100%; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}`;

export function CashClosePage() {
  // Undefined until the admin picks a day: the server answers with its default shift date.
  const [picked, setPicked] = useState<string | undefined>();
  const report = useCashClose(picked);
  const data = report.data;
  const date = picked ?? data?.date ?? '';
  const empty = data !== undefined && data.summary.totalOrders === 0;

  return (
    <div className="cash-close-report space-y-6">
      <style>{REPORT_PRINT}</style>
      <div className="flex flex-col gap-4 md:flex-row md:items-end md:justify-between">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">{t.cashClose.title}</h1>
          {data && (
            <p className="text-sm text-slate-500" data-testid="shift-window">
              {t.cashClose.shift(shiftDateTime(data.window.start, data.timezone), shiftDateTime(data.window.end, data.timezone))}
            </p>
          )}
        </div>
        <div className="flex flex-wrap items-end gap-2 print:hidden">
          <div>
            <Label htmlFor="shift-date">{t.cashClose.date}</Label>
            <Input
              id="shift-date"
              type="date"
              value={date}
              required
              onChange={(e) => e.target.value && setPicked(e.target.value)}
              className="w-44"
            />
          </div>
          <a
            href={date ? exportCsvUrl(date) : undefined}
            download
            className="inline-flex h-11 items-center gap-2 rounded-lg border border-slate-300 bg-white px-4 text-sm font-medium text-slate-800 hover:bg-slate-100"
          >
            <Download className="h-4 w-4" aria-hidden />
            {t.cashClose.exportCsv}
          </a>
          <Button variant="primary" onClick={() => window.print()} disabled={!data}>
            <Printer className="h-4 w-4" aria-hidden />
            {t.cashClose.printReport}
          </Button>
        </div>
      </div>

      {report.isPending && <Spinner />}
      {report.isError && <ErrorState message={errorMessage(report.error, t.cashClose.loadError)} onRetry={() => void report.refetch()} />}
      {data && (
        <div className={report.isPlaceholderData ? 'space-y-6 opacity-60 transition-opacity' : 'space-y-6'} aria-busy={report.isFetching}>
          <OutsideNotice
            key={data.date}
            date={data.date}
            count={data.outsideShift.count}
            total={data.outsideShift.total}
            timezone={data.timezone}
          />
          {empty ? (
            <Card className="p-2">
              <EmptyState icon={<BarChart3 className="h-8 w-8" aria-hidden />} title={t.cashClose.empty} />
            </Card>
          ) : (
            <>
              <SummaryCards summary={data.summary} />
              <MethodTotals summary={data.summary} />
              <TaxTotalsCard taxes={data.taxes} tips={data.summary.totalTips} testId="cash-close-taxes" />
              <StatisticsPanels statistics={data.statistics} />
            </>
          )}
          {!empty && <AdjustmentsPanel date={data.date} />}
          {!empty && <PromotionsPanel date={data.date} />}
          <CancellationsPanel date={data.date} />
          <DrawerCortes date={data.date} />
        </div>
      )}
    </div>
  );
}
