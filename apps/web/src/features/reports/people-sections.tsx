import type { ReportsResponse } from '@comanda/contract';
import { BarList } from '../../components/charts.tsx';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { FigureTable } from './figure-table.tsx';
import { ReportSection } from './report-section.tsx';

type Props = { report: ReportsResponse };
const r = t.reports;

export function WaitersSection({ report }: Props) {
  return (
    <ReportSection id="meseros" title={r.waiters} from={report.from} to={report.to}>
      <BarList
        testId="waiters-bars"
        color="bg-sky-500"
        rows={report.waiters.map((w) => ({ key: w.waiterId ?? 'none', label: w.waiterName, value: w.sales, display: money(w.sales) }))}
      />
      <FigureTable
        caption={r.waiters}
        rows={report.waiters}
        rowKey={(w) => w.waiterId ?? 'none'}
        columns={[
          { header: r.waiter, cell: (w) => w.waiterName },
          { header: r.tickets, cell: (w) => w.tickets, numeric: true },
          { header: r.sales, cell: (w) => money(w.sales), numeric: true },
          { header: r.averageTicket, cell: (w) => money(w.averageTicket), numeric: true },
          { header: r.tips, cell: (w) => money(w.tips), numeric: true },
        ]}
      />
    </ReportSection>
  );
}

export function LossesSection({ report }: Props) {
  const { totals, byReason, byUser } = report.losses;
  const any = totals.some((k) => k.count > 0);
  return (
    <ReportSection id="cancelaciones" title={r.losses} hint={r.lossesHint} from={report.from} to={report.to} wide>
      {!any ? (
        <p className="py-4 text-center text-sm text-slate-600">{r.noLosses}</p>
      ) : (
        <>
          <BarList
            testId="losses-bars"
            color="bg-rose-500"
            rows={totals.map((k) => ({
              key: k.kind,
              label: r.lossKinds[k.kind],
              value: k.amount,
              display: money(k.amount),
              detail: `${r.times}: ${k.count}`,
            }))}
          />
          <div className="grid gap-3 lg:grid-cols-2">
            <FigureTable
              caption={`${r.losses} · ${r.byReason}`}
              rows={byReason}
              rowKey={(x) => `${x.kind}-${x.reason}`}
              columns={[
                { header: r.kind, cell: (x) => r.lossKinds[x.kind] },
                { header: r.reason, cell: (x) => x.reason },
                { header: r.times, cell: (x) => x.count, numeric: true },
                { header: r.amount, cell: (x) => money(x.amount), numeric: true },
              ]}
            />
            <FigureTable
              caption={`${r.losses} · ${r.byUser}`}
              rows={byUser}
              rowKey={(x) => `${x.kind}-${x.userId ?? ''}`}
              columns={[
                { header: r.kind, cell: (x) => r.lossKinds[x.kind] },
                { header: r.user, cell: (x) => x.userName },
                { header: r.times, cell: (x) => x.count, numeric: true },
                { header: r.amount, cell: (x) => money(x.amount), numeric: true },
              ]}
            />
          </div>
        </>
      )}
    </ReportSection>
  );
}
