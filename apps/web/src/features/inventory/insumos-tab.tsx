import { useState } from 'react';
import { toast } from './inv-toast.ts';
import { useQueryClient } from '@tanstack/react-query';
import { InsumoResponseSchema, type Insumo } from '@comanda/contract';
import { CONSUMPTION_UNITS, formatQuantity, parseQuantity, UNIT_LABELS, type ConsumptionUnit } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { errorMessage } from '../../lib/api.ts';
import { INV } from './texts.ts';
import { useKeyedWrite } from './inventory-api.ts';

export const SELECT =
  'h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-slate-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none';

/** A stored quantity as typed in its unit, without the unit: 1500 milli-pieces → "1.5". */
export const plainQuantity = (qty: number, unit: ConsumptionUnit) => formatQuantity(qty, unit).split(' ')[0]!;
const optionalInt = (v: string) => (v.trim() === '' ? null : Math.trunc(Number(v)));

interface PresentationDraft {
  id?: string;
  name: string;
  content: string;
  tare: string;
  density: string;
}
const emptyPresentation = (): PresentationDraft => ({ name: '', content: '', tare: '', density: '' });

/** New insumo or an edit: name, unit, minimum, pour and its presentations (content, tare g, density mg/ml). */
function InsumoForm({ insumo, onDone }: { insumo: Insumo | null; onDone: () => void }) {
  const qc = useQueryClient();
  const write = useKeyedWrite('insumo');
  const [name, setName] = useState(insumo?.name ?? '');
  const [unit, setUnit] = useState<ConsumptionUnit>(insumo?.unit ?? 'ml');
  const [minStock, setMinStock] = useState(insumo ? plainQuantity(insumo.minStock, insumo.unit) : '');
  const [pour, setPour] = useState(insumo?.pourSize ? plainQuantity(insumo.pourSize, insumo.unit) : '');
  const [presentations, setPresentations] = useState<PresentationDraft[]>(
    insumo?.presentations.map((p) => ({
      id: p.id,
      name: p.name,
      content: plainQuantity(p.content, insumo.unit),
      tare: p.tareG === null ? '' : String(p.tareG),
      density: p.densityMgPerMl === null ? '' : String(p.densityMgPerMl),
    })) ?? [emptyPresentation()],
  );
  const setPresentation = (i: number, patch: Partial<PresentationDraft>) =>
    setPresentations((list) => list.map((p, j) => (j === i ? { ...p, ...patch } : p)));
  const title = insumo ? INV.editInsumo(insumo.name) : INV.newInsumo;
  const save = async () => {
    const q = (v: string) => (v.trim() === '' ? 0 : parseQuantity(v, unit));
    const min = q(minStock);
    const pourSize = pour.trim() === '' ? null : parseQuantity(pour, unit);
    const rows = presentations.filter((p) => p.name.trim());
    const contents = rows.map((p) => parseQuantity(p.content, unit));
    if (min === null || (pour.trim() !== '' && pourSize === null) || contents.some((c) => c === null)) {
      toast.error(INV.badQuantity(UNIT_LABELS[unit]));
      return;
    }
    const body = {
      name,
      unit,
      minStock: min,
      pourSize,
      presentations: rows.map((p, i) => ({
        ...(p.id ? { id: p.id } : {}),
        name: p.name,
        content: contents[i]!,
        tareG: optionalInt(p.tare),
        densityMgPerMl: optionalInt(p.density),
      })),
    };
    try {
      await (insumo
        ? write(InsumoResponseSchema, 'PUT', `/api/inventory/insumos/${insumo.id}`, body)
        : write(InsumoResponseSchema, 'POST', '/api/inventory/insumos', body));
      toast.success(INV.saved);
      await qc.invalidateQueries({ queryKey: ['inventory'] });
      onDone();
    } catch (err) {
      toast.error(errorMessage(err, INV.saveError));
    }
  };
  return (
    <Card className="flex flex-col gap-3 p-4" data-testid="insumo-form">
      <h2 className="text-lg font-semibold">{title}</h2>
      <div className="grid gap-3 sm:grid-cols-4">
        <div className="sm:col-span-2">
          <Label htmlFor="insumo-name">{INV.name}</Label>
          <Input id="insumo-name" value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div>
          <Label htmlFor="insumo-unit">{INV.unit}</Label>
          <select id="insumo-unit" className={SELECT} value={unit} onChange={(e) => setUnit(e.target.value as ConsumptionUnit)}>
            {CONSUMPTION_UNITS.map((u) => (
              <option key={u} value={u}>
                {UNIT_LABELS[u]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <Label htmlFor="insumo-min">
            {INV.minimum} ({UNIT_LABELS[unit]})
          </Label>
          <Input id="insumo-min" inputMode="decimal" value={minStock} onChange={(e) => setMinStock(e.target.value)} />
        </div>
        <div className="sm:col-span-2">
          <Label htmlFor="insumo-pour">
            {INV.pourSize} ({UNIT_LABELS[unit]})
          </Label>
          <Input id="insumo-pour" inputMode="decimal" value={pour} onChange={(e) => setPour(e.target.value)} />
        </div>
      </div>
      <h3 className="font-semibold">{INV.presentations}</h3>
      {presentations.map((p, i) => (
        <fieldset
          key={p.id ?? `new-${i}`}
          className="grid items-end gap-2 rounded-lg border border-slate-200 p-2 sm:grid-cols-[2fr_1fr_1fr_1fr_auto]"
        >
          <legend className="sr-only">
            {INV.presentation} {i + 1}
          </legend>
          <div>
            <Label htmlFor={`p-name-${i}`}>{INV.presentation}</Label>
            <Input id={`p-name-${i}`} value={p.name} onChange={(e) => setPresentation(i, { name: e.target.value })} />
          </div>
          <div>
            <Label htmlFor={`p-content-${i}`}>
              {INV.content} ({UNIT_LABELS[unit]})
            </Label>
            <Input
              id={`p-content-${i}`}
              inputMode="decimal"
              value={p.content}
              onChange={(e) => setPresentation(i, { content: e.target.value })}
            />
          </div>
          <div>
            <Label htmlFor={`p-tare-${i}`}>{INV.tare}</Label>
            <Input id={`p-tare-${i}`} inputMode="numeric" value={p.tare} onChange={(e) => setPresentation(i, { tare: e.target.value })} />
          </div>
          <div>
            <Label htmlFor={`p-density-${i}`}>{INV.density}</Label>
            <Input
              id={`p-density-${i}`}
              inputMode="numeric"
              value={p.density}
              onChange={(e) => setPresentation(i, { density: e.target.value })}
            />
          </div>
          <Button
            variant="ghost"
            aria-label={`${INV.removePresentation} ${p.name || i + 1}`}
            onClick={() => setPresentations((list) => list.filter((_, j) => j !== i))}
          >
            {INV.removeIngredient}
          </Button>
        </fieldset>
      ))}
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => setPresentations((list) => [...list, emptyPresentation()])}>
          {INV.addPresentation}
        </Button>
        <span className="flex-1" />
        {insumo && (
          <Button variant="ghost" onClick={onDone}>
            {INV.cancel}
          </Button>
        )}
        <Button onClick={() => void save()} disabled={!name.trim()}>
          {INV.save}
        </Button>
      </div>
    </Card>
  );
}

/** Insumos with their stock per warehouse; a tap on Editar opens the insumo's form. */
export function InsumosTab({ insumos }: { insumos: Insumo[] }) {
  const [editing, setEditing] = useState<Insumo | null>(null);
  const [formKey, setFormKey] = useState(0);
  const done = () => {
    setEditing(null);
    setFormKey((k) => k + 1);
  };
  // The form sits under the list: its first field takes the focus, which brings it into view.
  const edit = (insumo: Insumo) => {
    setEditing(insumo);
    requestAnimationFrame(() => document.getElementById('insumo-name')?.focus());
  };
  return (
    <div className="flex flex-col gap-4">
      <Card className="overflow-x-auto p-2">
        {insumos.length === 0 ? (
          <p className="p-4 text-slate-600">{INV.empty}</p>
        ) : (
          <table className="w-full text-left text-base">
            <thead>
              <tr className="text-slate-600">
                <th className="p-2">{INV.insumo}</th>
                <th className="p-2">{INV.bodega}</th>
                <th className="p-2">{INV.barra}</th>
                <th className="p-2">{INV.minimum}</th>
                <th className="p-2">
                  <span className="sr-only">{INV.edit}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {insumos.map((i) => (
                <tr key={i.id} className="border-t border-slate-100" data-testid={`insumo-${i.name}`}>
                  <td className="p-2">
                    <span className="font-medium">{i.name}</span>
                    <span className="block text-sm text-slate-600">{i.presentations.map((p) => p.name).join(' · ')}</span>
                  </td>
                  <td className="p-2">{formatQuantity(i.stock['bodega'] ?? 0, i.unit)}</td>
                  <td className="p-2">{formatQuantity(i.stock['barra'] ?? 0, i.unit)}</td>
                  <td className="p-2">{formatQuantity(i.minStock, i.unit)}</td>
                  <td className="p-2 text-right">
                    <Button size="sm" variant="outline" aria-label={INV.editInsumo(i.name)} onClick={() => edit(i)}>
                      {INV.edit}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      <InsumoForm key={editing ? `edit-${editing.id}` : `new-${formKey}`} insumo={editing} onDone={done} />
    </div>
  );
}
