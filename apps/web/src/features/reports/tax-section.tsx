import type { ReportsResponse } from '@comanda/contract';
import { TAX_TEXT } from '@comanda/domain';
import { TaxTotals } from '../../components/ticket/tax-summary.tsx';
import { ReportSection } from './report-section.tsx';

/** Ventas netas, IVA trasladado by rate and the tips apart, from the paid checks' frozen breakdowns. */
export function TaxesSection({ report }: { report: ReportsResponse }) {
  return (
    <ReportSection id="impuestos" title={TAX_TEXT.sheet} hint={TAX_TEXT.included} from={report.from} to={report.to}>
      <dl className="space-y-1 text-sm" data-testid="report-taxes">
        <TaxTotals taxes={report.taxes} tips={report.totals.tips} Row={TaxRow} />
      </dl>
    </ReportSection>
  );
}

function TaxRow({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between border-b border-slate-100 py-1 text-slate-700">
      <dt>{label}</dt>
      <dd className="tabular-nums">{value}</dd>
    </div>
  );
}
