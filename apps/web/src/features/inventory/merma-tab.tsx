import { useState } from 'react';
import { toast } from './inv-toast.ts';
import { useQueryClient } from '@tanstack/react-query';
import { OkSchema, type Insumo, type Warehouse } from '@comanda/contract';
import { formatQuantity, parseQuantity, UNIT_LABELS } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { errorMessage } from '../../lib/api.ts';
import { INV } from './texts.ts';
import { useKeyedWrite } from './inventory-api.ts';
import { SELECT } from './insumos-tab.tsx';

/** Merma: what was lost (a broken bottle, a spill) leaves the stock with its reason; it is never given back. */
export function MermaTab({ insumos, warehouses }: { insumos: Insumo[]; warehouses: Warehouse[] }) {
  const qc = useQueryClient();
  const write = useKeyedWrite('merma');
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
    try {
      await write(OkSchema, 'POST', '/api/inventory/merma', { warehouseId, insumoId, qty: amount, reason });
      toast.success(INV.mermaSaved);
      setQty('');
      setReason('');
      await qc.invalidateQueries({ queryKey: ['inventory'] });
    } catch (err) {
      toast.error(errorMessage(err, INV.saveError));
    }
  };
  return (
    <Card className="flex max-w-2xl flex-col gap-3 p-4">
      <h2 className="text-lg font-semibold">{INV.mermaTitle}</h2>
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <Label htmlFor="merma-insumo">{INV.insumo}</Label>
          <select id="merma-insumo" className={SELECT} value={insumoId} onChange={(e) => setInsumoId(e.target.value)}>
            <option value="">—</option>
            {insumos.map((i) => (
              <option key={i.id} value={i.id}>
                {i.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <Label htmlFor="merma-warehouse">{INV.warehouse}</Label>
          <select id="merma-warehouse" className={SELECT} value={warehouseId} onChange={(e) => setWarehouseId(e.target.value)}>
            {warehouses.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </div>
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
