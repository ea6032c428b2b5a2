import { useState } from 'react';
import { toast } from './inv-toast.ts';
import { OkSchema, type Insumo, type Warehouse } from '@comanda/contract';
import { formatQuantity, parseQuantity, UNIT_LABELS } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { INV } from './texts.ts';
import { useStockPost } from './use-stock-post.ts';
import { NamedSelect } from './named-select.tsx';

/** Merma: what was lost (a broken bottle, a spill) leaves the stock with its reason; it is never given back. */
export function MermaTab({ insumos, warehouses }: { insumos: Insumo[]; warehouses: Warehouse[] }) {
  const post = useStockPost('merma');
  const [insumoId, setInsumoId] = useState('');
  const [warehouseId, setWarehouseId] = useState('barra');
  const [qty, setQty] = useState('');
  const [reason, setReason] = useState('');
  const insumo = insumos.find((i) => i.id === insumoId) ?? null;
  const save = async () => {
    if (!insumo) return;
    const amount = parseQuantity(qty, insumo.unit);
    if (amount === null || amount <= 0) {
      toast.error(INV.badQuantity(UNIT_LABELS[insumo.unit]));
      return;
    }
    const clear = () => {
      setQty('');
      setReason('');
    };
    await post(OkSchema, '/api/inventory/merma', { warehouseId, insumoId, qty: amount, reason }, { message: INV.mermaSaved, clear });
  };
  return (
    <Card className="flex max-w-2xl flex-col gap-3 p-4">
      <h2 className="text-lg font-semibold">{INV.mermaTitle}</h2>
      <div className="grid gap-3 sm:grid-cols-2">
        <NamedSelect id="merma-insumo" label={INV.insumo} items={insumos} value={insumoId} onChange={setInsumoId} blank="—" />
        <NamedSelect id="merma-warehouse" label={INV.warehouse} items={warehouses} value={warehouseId} onChange={setWarehouseId} />
        <div>
          <Label htmlFor="merma-qty">
            {INV.amount}
            {insumo ? ` (${UNIT_LABELS[insumo.unit]})` : ''}
          </Label>
          <Input id="merma-qty" inputMode="decimal" value={qty} onChange={(e) => setQty(e.target.value)} />
          {insumo && (
            <p className="mt-1 text-sm text-slate-600">
              {warehouses.find((w) => w.id === warehouseId)?.name}: {formatQuantity(insumo.stock[warehouseId] ?? 0, insumo.unit)}
            </p>
          )}
        </div>
        <div>
          <Label htmlFor="merma-reason">{INV.reason}</Label>
          <Input id="merma-reason" value={reason} maxLength={120} onChange={(e) => setReason(e.target.value)} />
        </div>
      </div>
      <div className="flex flex-wrap gap-2" role="group" aria-label={INV.reason}>
        {INV.reasons.map((r) => (
          <Button key={r} size="sm" variant={reason === r ? 'primary' : 'outline'} aria-pressed={reason === r} onClick={() => setReason(r)}>
            {r}
          </Button>
        ))}
      </div>
      <Button onClick={() => void save()} disabled={!insumo || !qty.trim() || !reason.trim()}>
        {INV.mermaSave}
      </Button>
    </Card>
  );
}
