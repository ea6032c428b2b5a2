import { useState } from 'react';
import type { VarianceReportRow, VarianceResponse } from '@comanda/contract';
import { formatQuantity } from '@comanda/domain';
import { Card } from '../../components/ui/card.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { money } from '../../lib/format.ts';
import { INV } from './texts.ts';
import { useVariance } from './inventory-api.ts';

function VarianceTable({ rows, testId }: { rows: VarianceReportRow[]; testId: string }) {
  return (
    <table className="w-full text-left">
      <thead>
        <tr className="text-slate-500">
          <th className="p-2">{INV.insumo}</th>
          <th className="p-2">{INV.theoretical}</th>
          <th className="p-2">{INV.real}</th>
          <th className="p-2">{INV.variance}</th>
          <th className="p-2">{INV.pours}</th>
          <th className="p-2">{INV.pesos}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.insumoId} className="border-t border-slate-100" data-testid={`${testId}-${r.name}`}>
            <td className="p-2 font-medium">{r.name}</td>
            <td className="p-2">{formatQuantity(r.theoretical, r.unit)}</td>
            <td className="p-2">{formatQuantity(r.real, r.unit)}</td>
            <td className="p-2">{formatQuantity(r.variance, r.unit)}</td>
            <td className="p-2">{r.pourTenths === null ? '' : (r.pourTenths / 10).toFixed(1)}</td>
            <td className="p-2">{r.costCents === null ? '' : money(r.costCents)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type TheoryRow = Pick<VarianceResponse['byWaiter'][number], 'station' | 'pourTenths' | 'costCents' | 'items'> & {
  key: string;
  name: string;
};

/** Theoretical consumption per person (waiter or preparer): a count belongs to no one, so no real column. */
function TheoryCard(props: { title: string; hint: string; who: string; testId: string; rows: TheoryRow[] }) {
  return (
    <Card className="flex flex-col gap-3 overflow-x-auto p-4">
      <h2 className="text-lg font-semibold">{props.title}</h2>
      <p className="text-sm text-slate-600">{props.hint}</p>
      <table className="w-full text-left">
        <thead>
          <tr className="text-slate-500">
            <th className="p-2">{props.who}</th>
            <th className="p-2">{INV.station}</th>
            <th className="p-2">{INV.theoretical}</th>
            <th className="p-2">{INV.pours}</th>
            <th className="p-2">{INV.theoreticalCost}</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r) => (
            <tr key={r.key} className="border-t border-slate-100" data-testid={`${props.testId}-${r.name}`}>
              <td className="p-2 font-medium">{r.name}</td>
              <td className="p-2 capitalize">{r.station}</td>
              <td className="p-2">{r.items.map((i) => `${formatQuantity(i.theoretical, i.unit)} ${i.name}`).join(' · ')}</td>
              <td className="p-2">{(r.pourTenths / 10).toFixed(1)}</td>
              <td className="p-2">{money(r.costCents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

/**
 * Diferencias of a business day: the barra's theory against its counts, worst first; per station
 * the real variance of the station's own warehouse; per waiter only the theory of what they sold,
 * per bartender that of what they marked listo.
 */
export function DiferenciasTab() {
  const [date, setDate] = useState(() => new Date(Date.now() - 3 * 3_600_000).toLocaleDateString('en-CA'));
  const variance = useVariance(date);
  const rows = variance.data?.rows ?? [];
  const stations = variance.data?.byStation ?? [];
  const waiters = variance.data?.byWaiter ?? [];
  const preparers = variance.data?.byPreparer ?? [];
  // A bar that does not mark lines Listo on the board would get one row repeating the total: a note instead.
  const anyPrepared = preparers.some((p) => p.preparerId !== null);
  return (
    <div className="flex flex-col gap-4">
      <Card className="flex flex-col gap-3 overflow-x-auto p-4">
        <div className="flex flex-wrap items-end gap-3">
          <Label>
            {INV.date}
            <Input type="date" value={date} onChange={(e) => setDate(e.target.value)} aria-label={INV.date} />
          </Label>
          <a className="inline-flex h-11 items-center text-brand-700 underline" href={`/api/inventory/variance.xlsx?date=${date}`}>
            {INV.export}
          </a>
        </div>
        {rows.length === 0 ? <p className="text-slate-500">{INV.noVariance}</p> : <VarianceTable rows={rows} testId="diferencia" />}
      </Card>
      {stations.length > 0 && (
        <Card className="flex flex-col gap-3 overflow-x-auto p-4">
          <h2 className="text-lg font-semibold">{INV.byStation}</h2>
          <p className="text-sm text-slate-600">{INV.byStationHint}</p>
          <table className="w-full text-left">
            <thead>
              <tr className="text-slate-500">
                <th className="p-2">{INV.station}</th>
                <th className="p-2">{INV.warehouse}</th>
                <th className="p-2">{INV.theoreticalCost}</th>
                <th className="p-2">{INV.varianceCost}</th>
              </tr>
            </thead>
            <tbody>
              {stations.map((s) => (
                <tr key={s.warehouseId} className="border-t border-slate-100" data-testid={`estacion-${s.station}`}>
                  <td className="p-2 font-medium capitalize">{s.station}</td>
                  <td className="p-2">{s.warehouseName}</td>
                  <td className="p-2">{money(s.theoreticalCostCents)}</td>
                  <td className="p-2">{money(s.varianceCostCents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
      {waiters.length > 0 && (
        <TheoryCard
          title={INV.byWaiter}
          hint={INV.byWaiterHint}
          who={INV.waiter}
          testId="mesero"
          rows={waiters.map((w) => ({ ...w, key: `${w.waiterName}-${w.station}`, name: w.waiterName }))}
        />
      )}
      {preparers.length > 0 && !anyPrepared && (
        <Card className="flex flex-col gap-3 p-4">
          <h2 className="text-lg font-semibold">{INV.byPreparer}</h2>
          <p className="text-sm text-slate-600">{INV.noPreparer}</p>
        </Card>
      )}
      {anyPrepared && (
        <TheoryCard
          title={INV.byPreparer}
          hint={INV.byPreparerHint}
          who={INV.preparer}
          testId="preparo"
          rows={preparers.map((p) => ({ ...p, key: `${p.preparerId ?? ''}-${p.preparerName}-${p.station}`, name: p.preparerName }))}
        />
      )}
    </div>
  );
}
