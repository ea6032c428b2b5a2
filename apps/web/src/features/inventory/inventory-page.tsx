import { useState } from 'react';
import { toast } from 'sonner';
import { useQueryClient } from '@tanstack/react-query';
import { CfdiPreviewResponseSchema, CountResponseSchema, OkSchema, PurchaseResponseSchema } from '@comanda/contract';
import type { CfdiPreview, Insumo } from '@comanda/contract';
import { formatQuantity } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { Tabs } from '../../components/ui/tabs.tsx';
import { errorMessage, post } from '../../lib/api.ts';
import { money } from '../../lib/format.ts';
import { INV } from './texts.ts';
import { useInsumos, useKeyedWrite, useVariance } from './inventory-api.ts';
import { InsumosTab, SELECT } from './insumos-tab.tsx';
import { RecipesTab } from './recipes-tab.tsx';
import { MermaTab } from './merma-tab.tsx';

type Tab = keyof typeof INV.tabs;
const int = (v: string) => (v.trim() === '' ? 0 : Math.trunc(Number(v)));

function ComprasTab({ insumos }: { insumos: Insumo[] }) {
  const qc = useQueryClient();
  const write = useKeyedWrite('compra');
  const presentations = insumos.flatMap((i) => i.presentations.map((p) => ({ ...p, insumo: i })));
  const [presentationId, setPresentationId] = useState('');
  const [units, setUnits] = useState('');
  const [cost, setCost] = useState('');
  const [xml, setXml] = useState('');
  const [invoice, setInvoice] = useState<CfdiPreview | null>(null);
  const [mappings, setMappings] = useState<(string | null)[]>([]);
  const done = async (message: string) => {
    toast.success(message);
    await qc.invalidateQueries({ queryKey: ['inventory'] });
  };
  const buy = async () => {
    try {
      await write(PurchaseResponseSchema, 'POST', '/api/inventory/purchases', {
        lines: [{ presentationId, units: int(units), unitCostCents: Math.round(Number(cost) * 100) }],
      });
      await done(INV.bought);
    } catch (err) {
      toast.error(errorMessage(err, INV.saveError));
    }
  };
  const transfer = async (insumo: Insumo) => {
    try {
      await write(OkSchema, 'POST', '/api/inventory/transfers', {
        from: 'bodega',
        to: 'barra',
        lines: [{ insumoId: insumo.id, qty: insumo.stock['bodega'] ?? 0 }],
      });
      await done(INV.transferred);
    } catch (err) {
      toast.error(errorMessage(err, INV.saveError));
    }
  };
  const read = async () => {
    try {
      const res = await post(CfdiPreviewResponseSchema, '/api/inventory/purchases/cfdi/preview', { xml });
      setInvoice(res.invoice);
      setMappings(res.invoice.concepts.map((c) => c.presentationId));
    } catch (err) {
      toast.error(errorMessage(err, INV.saveError));
    }
  };
  const saveCfdi = async () => {
    try {
      await write(PurchaseResponseSchema, 'POST', '/api/inventory/purchases/cfdi', { xml, mappings });
      setInvoice(null);
      setXml('');
      await done(INV.bought);
    } catch (err) {
      toast.error(errorMessage(err, INV.saveError));
    }
  };
  const select = (value: string, onChange: (v: string) => void, label: string) => (
    <select className={SELECT} value={value} aria-label={label} onChange={(e) => onChange(e.target.value)}>
      <option value="">—</option>
      {presentations.map((p) => (
        <option key={p.id} value={p.id}>
          {p.insumo.name} · {p.name}
        </option>
      ))}
    </select>
  );
  return (
    <div className="flex flex-col gap-4">
      <Card className="grid gap-3 p-4 sm:grid-cols-3">
        <Label>
          {INV.presentation}
          {select(presentationId, setPresentationId, INV.presentation)}
        </Label>
        <Label>
          {INV.units}
          <Input inputMode="numeric" value={units} onChange={(e) => setUnits(e.target.value)} aria-label={INV.units} />
        </Label>
        <Label>
          {INV.cost}
          <Input inputMode="decimal" value={cost} onChange={(e) => setCost(e.target.value)} aria-label={INV.cost} />
        </Label>
        <Button className="sm:col-span-3" onClick={() => void buy()} disabled={!presentationId || !units}>
          {INV.buy}
        </Button>
      </Card>
      <Card className="flex flex-col gap-3 p-4">
        <Label>
          {INV.cfdi}
          <input type="file" accept=".xml,text/xml" aria-label={INV.cfdi} onChange={(e) => void e.target.files?.[0]?.text().then(setXml)} />
        </Label>
        <Button variant="outline" onClick={() => void read()} disabled={!xml}>
          {INV.cfdiRead}
        </Button>
        {invoice && (
          <div className="flex flex-col gap-2">
            <p className="font-medium">
              {invoice.supplierName} · {invoice.rfc}
            </p>
            {invoice.concepts.map((c, i) => (
              <div key={i} className="grid gap-2 sm:grid-cols-2">
                <span>
                  {c.quantity} × {c.description} · {money(c.unitValueCents)}
                </span>
                {select(mappings[i] ?? '', (v) => setMappings((m) => m.map((x, j) => (j === i ? v || null : x))), c.description)}
              </div>
            ))}
            <Button onClick={() => void saveCfdi()}>{INV.cfdiSave}</Button>
          </div>
        )}
      </Card>
      <Card className="flex flex-col gap-2 p-4">
        {insumos
          .filter((i) => (i.stock['bodega'] ?? 0) > 0)
          .map((i) => (
            <div key={i.id} className="flex items-center justify-between gap-2">
              <span>
                {i.name}: {formatQuantity(i.stock['bodega'] ?? 0, i.unit)}
              </span>
              <Button size="sm" variant="outline" aria-label={`${INV.transfer}: ${i.name}`} onClick={() => void transfer(i)}>
                {INV.transfer}
              </Button>
            </div>
          ))}
      </Card>
    </div>
  );
}

function ConteoTab({ insumos }: { insumos: Insumo[] }) {
  const qc = useQueryClient();
  const write = useKeyedWrite('conteo');
  const [values, setValues] = useState<Record<string, { closed: string; grossG: string; loose: string }>>({});
  const set = (id: string, key: 'closed' | 'grossG' | 'loose', v: string) =>
    setValues((s) => ({ ...s, [id]: { closed: '', grossG: '', loose: '', ...s[id], [key]: v } }));
  const save = async () => {
    const lines = insumos
      .filter((i) => values[i.id])
      .map((i) => {
        const v = values[i.id]!;
        const p = i.presentations[0];
        return {
          insumoId: i.id,
          closed: p && v.closed ? [{ presentationId: p.id, units: int(v.closed) }] : [],
          open: p && v.grossG ? [{ presentationId: p.id, grossG: int(v.grossG) }] : [],
          loose: int(v.loose),
        };
      });
    try {
      await write(CountResponseSchema, 'POST', '/api/inventory/counts', { lines });
      toast.success(INV.counted);
      setValues({});
      await qc.invalidateQueries({ queryKey: ['inventory'] });
    } catch (err) {
      toast.error(errorMessage(err, INV.saveError));
    }
  };
  return (
    <Card className="flex flex-col gap-3 p-4">
      {insumos.map((i) => (
        <div key={i.id} className="grid items-end gap-2 sm:grid-cols-4" data-testid={`conteo-${i.name}`}>
          <span className="font-medium">{i.name}</span>
          <Label>
            {INV.closed}
            <Input
              inputMode="numeric"
              value={values[i.id]?.closed ?? ''}
              onChange={(e) => set(i.id, 'closed', e.target.value)}
              aria-label={`${INV.closed} ${i.name}`}
            />
          </Label>
          <Label>
            {INV.openG}
            <Input
              inputMode="numeric"
              value={values[i.id]?.grossG ?? ''}
              onChange={(e) => set(i.id, 'grossG', e.target.value)}
              aria-label={`${INV.openG} ${i.name}`}
            />
          </Label>
          <Label>
            {INV.loose}
            <Input
              inputMode="numeric"
              value={values[i.id]?.loose ?? ''}
              onChange={(e) => set(i.id, 'loose', e.target.value)}
              aria-label={`${INV.loose} ${i.name}`}
            />
          </Label>
        </div>
      ))}
      <Button onClick={() => void save()} disabled={Object.keys(values).length === 0}>
        {INV.countSave}
      </Button>
    </Card>
  );
}

function DiferenciasTab() {
  const [date, setDate] = useState(() => new Date(Date.now() - 3 * 3_600_000).toLocaleDateString('en-CA'));
  const variance = useVariance(date);
  const rows = variance.data?.rows ?? [];
  return (
    <Card className="flex flex-col gap-3 overflow-x-auto p-4">
      <div className="flex flex-wrap items-end gap-3">
        <Label>
          {INV.date}
          <Input type="date" value={date} onChange={(e) => setDate(e.target.value)} aria-label={INV.date} />
        </Label>
        <a className="text-brand-700 underline" href={`/api/inventory/variance.xlsx?date=${date}`}>
          {INV.export}
        </a>
      </div>
      {rows.length === 0 ? (
        <p className="text-slate-500">{INV.noVariance}</p>
      ) : (
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
              <tr key={r.insumoId} className="border-t border-slate-100" data-testid={`diferencia-${r.name}`}>
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
      )}
    </Card>
  );
}

/** Inventario (decision 0055): insumos and stock, purchases, the bar's count and the variance. */
export function InventoryPage() {
  const [tab, setTab] = useState<Tab>('insumos');
  const insumos = useInsumos();
  const list = insumos.data?.insumos ?? [];
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-4 p-4">
      <h1 className="text-2xl font-bold">{INV.title}</h1>
      <Tabs
        label={INV.title}
        value={tab}
        onChange={setTab}
        tabs={(Object.keys(INV.tabs) as Tab[]).map((value) => ({ value, label: INV.tabs[value] }))}
      />
      {tab === 'insumos' && <InsumosTab insumos={list} />}
      {tab === 'recetas' && <RecipesTab insumos={list} />}
      {tab === 'compras' && <ComprasTab insumos={list} />}
      {tab === 'conteo' && <ConteoTab insumos={list} />}
      {tab === 'merma' && <MermaTab insumos={list} warehouses={insumos.data?.warehouses ?? []} />}
      {tab === 'diferencias' && <DiferenciasTab />}
    </div>
  );
}
