import { useState } from 'react';
import { toast } from './inv-toast.ts';
import { useQueryClient } from '@tanstack/react-query';
import { CfdiPreviewResponseSchema, OkSchema, PurchaseResponseSchema } from '@comanda/contract';
import type { CfdiPreview, Insumo } from '@comanda/contract';
import { formatQuantity } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { Tabs } from '../../components/ui/tabs.tsx';
import { errorMessage, post } from '../../lib/api.ts';
import { money } from '../../lib/format.ts';
import { INV } from './texts.ts';
import { useInsumos, useKeyedWrite } from './inventory-api.ts';
import { InsumosTab, SELECT } from './insumos-tab.tsx';
import { RecipesTab } from './recipes-tab.tsx';
import { MermaTab } from './merma-tab.tsx';
import { ConteoTab } from './conteo-tab.tsx';
import { DiferenciasTab } from './diferencias-tab.tsx';

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
      {tab === 'conteo' && <ConteoTab insumos={list} warehouses={insumos.data?.warehouses ?? []} />}
      {tab === 'merma' && <MermaTab insumos={list} warehouses={insumos.data?.warehouses ?? []} />}
      {tab === 'diferencias' && <DiferenciasTab />}
    </div>
  );
}
