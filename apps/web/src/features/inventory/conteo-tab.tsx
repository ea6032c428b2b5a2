import { CountBodySchema, CountResponseSchema, type CountBody, type Insumo, type Warehouse } from '@comanda/contract';
import { parseQuantity, UNIT_LABELS } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { useZodForm } from '../../lib/use-zod-form.ts';
import { INV } from './texts.ts';
import { SELECT } from './insumos-tab.tsx';
import { useStockPost } from './use-stock-post.ts';
import { NamedSelect } from './named-select.tsx';

type Presentation = Insumo['presentations'][number];

interface OpenRow {
  key: number;
  presentationId: string;
  mode: 'g' | 'tenths';
  grossG: string;
  tenths: number | null;
}

interface RowValues {
  /** Closed bottles typed per presentation id. */
  closed: Record<string, string>;
  open: OpenRow[];
  loose: string;
}

interface Values {
  warehouseId: string;
  rows: Record<string, RowValues>;
}

const EMPTY_ROW: RowValues = { closed: {}, open: [], loose: '' };
const weighable = (p: Presentation | undefined) => !!p && p.tareG !== null && !!p.densityMgPerMl;
/** A whole number as typed, or NaN (the schema words the problem). */
const whole = (v: string) => (/^\d{1,9}$/.test(v.trim()) ? Number(v.trim()) : Number.NaN);
let nextKey = 1;

/** What the count posts: only the insumos someone touched, each as it was counted. */
function toBody(values: Values, insumos: Insumo[]): unknown {
  const lines = insumos
    .filter((i) => values.rows[i.id])
    .map((i) => {
      const row = values.rows[i.id]!;
      return {
        insumoId: i.id,
        closed: Object.entries(row.closed)
          .filter(([, v]) => v.trim() !== '')
          .map(([presentationId, v]) => ({ presentationId, units: whole(v) })),
        open: row.open
          .filter((o) => (o.mode === 'g' ? o.grossG.trim() !== '' : o.tenths !== null))
          .map((o) =>
            o.mode === 'g'
              ? { presentationId: o.presentationId, grossG: whole(o.grossG) }
              : { presentationId: o.presentationId, tenths: o.tenths },
          ),
        loose: row.loose.trim() === '' ? 0 : (parseQuantity(row.loose, i.unit) ?? Number.NaN),
      };
    });
  return { warehouseId: values.warehouseId, note: null, lines };
}

/**
 * The count at the bar (tablet first): per insumo, closed bottles by presentation, and each open
 * bottle on its own row — its presentation chosen, then weighed on the scale (g) or estimated in
 * tenths of the bottle (0–10). Checked with the contract's schema before it is sent.
 */
export function ConteoTab({ insumos, warehouses }: { insumos: Insumo[]; warehouses: Warehouse[] }) {
  const post = useStockPost('conteo');
  const save = (body: CountBody) =>
    post(CountResponseSchema, '/api/inventory/counts', body, { message: INV.counted, clear: () => form.reset() });
  const form = useZodForm<Values, CountBody>({
    initial: { warehouseId: 'barra', rows: {} },
    schema: CountBodySchema,
    toInput: (v) => toBody(v, insumos),
    before: (v) => {
      const body = toBody(v, insumos) as { lines: { closed: { units: number }[]; open: { grossG?: number }[]; loose: number }[] };
      const bad = body.lines.some(
        (l) => Number.isNaN(l.loose) || l.closed.some((c) => Number.isNaN(c.units)) || l.open.some((o) => Number.isNaN(o.grossG ?? 0)),
      );
      return bad ? INV.notANumber : null;
    },
    onValid: (body) => void save(body),
  });
  const row = (id: string) => form.values.rows[id] ?? EMPTY_ROW;
  const change = (id: string, next: (r: RowValues) => RowValues) =>
    form.update((v) => ({ ...v, rows: { ...v.rows, [id]: next(v.rows[id] ?? EMPTY_ROW) } }));
  const changeOpen = (id: string, key: number, patch: Partial<OpenRow>) =>
    change(id, (r) => ({ ...r, open: r.open.map((o) => (o.key === key ? { ...o, ...patch } : o)) }));

  return (
    <form className="flex flex-col gap-3" onSubmit={form.onSubmit} noValidate>
      <Card className="flex flex-wrap items-end gap-3 p-4">
        <NamedSelect
          id="conteo-warehouse"
          className="min-w-56"
          label={INV.countWarehouse}
          items={warehouses}
          value={form.values.warehouseId}
          onChange={(id) => form.set('warehouseId', id)}
        />
      </Card>
      {insumos.map((i) => {
        const r = row(i.id);
        const unit = UNIT_LABELS[i.unit];
        return (
          <Card key={i.id} className="flex flex-col gap-3 p-4" data-testid={`conteo-${i.name}`}>
            <h3 className="text-lg font-semibold">{i.name}</h3>
            <div className="grid gap-3 md:grid-cols-3">
              {i.presentations.map((p) => (
                <div key={p.id}>
                  <Label htmlFor={`closed-${i.id}-${p.id}`}>
                    {INV.closed} · {p.name}
                  </Label>
                  <Input
                    id={`closed-${i.id}-${p.id}`}
                    inputMode="numeric"
                    aria-label={INV.closedOf(p.name, i.name)}
                    value={r.closed[p.id] ?? ''}
                    onChange={(e) => change(i.id, (x) => ({ ...x, closed: { ...x.closed, [p.id]: e.target.value } }))}
                  />
                </div>
              ))}
              <div>
                <Label htmlFor={`loose-${i.id}`}>
                  {INV.loose} ({unit})
                </Label>
                <Input
                  id={`loose-${i.id}`}
                  inputMode="decimal"
                  aria-label={`${INV.loose} ${i.name}`}
                  value={r.loose}
                  onChange={(e) => change(i.id, (x) => ({ ...x, loose: e.target.value }))}
                />
              </div>
            </div>
            {r.open.map((o, n) => {
              const p = i.presentations.find((x) => x.id === o.presentationId);
              const label = INV.openBottle(n + 1, i.name);
              return (
                <fieldset key={o.key} className="flex flex-col gap-2 rounded-lg border border-slate-200 p-3" aria-label={label}>
                  <legend className="px-1 text-sm font-medium text-slate-700">{label}</legend>
                  <div className="flex flex-wrap items-end gap-3">
                    <div className="min-w-56">
                      <Label htmlFor={`open-p-${o.key}`}>{INV.presentation}</Label>
                      <select
                        id={`open-p-${o.key}`}
                        className={SELECT}
                        value={o.presentationId}
                        onChange={(e) => {
                          const next = i.presentations.find((x) => x.id === e.target.value);
                          changeOpen(i.id, o.key, { presentationId: e.target.value, ...(weighable(next) ? {} : { mode: 'tenths' }) });
                        }}
                      >
                        {i.presentations.map((x) => (
                          <option key={x.id} value={x.id}>
                            {x.name}
                          </option>
                        ))}
                      </select>
                    </div>
                    <div className="flex gap-1" role="group" aria-label={`${INV.howCounted} · ${label}`}>
                      <Button
                        variant={o.mode === 'g' ? 'primary' : 'outline'}
                        aria-pressed={o.mode === 'g'}
                        disabled={!weighable(p)}
                        onClick={() => changeOpen(i.id, o.key, { mode: 'g' })}
                      >
                        {INV.weighed}
                      </Button>
                      <Button
                        variant={o.mode === 'tenths' ? 'primary' : 'outline'}
                        aria-pressed={o.mode === 'tenths'}
                        onClick={() => changeOpen(i.id, o.key, { mode: 'tenths' })}
                      >
                        {INV.estimated}
                      </Button>
                    </div>
                    <Button
                      variant="outline"
                      className="ml-auto"
                      aria-label={`${INV.removeOpen} · ${label}`}
                      onClick={() => change(i.id, (x) => ({ ...x, open: x.open.filter((y) => y.key !== o.key) }))}
                    >
                      {INV.removeOpen}
                    </Button>
                  </div>
                  {!weighable(p) && <p className="text-sm text-slate-600">{INV.noScale}</p>}
                  {o.mode === 'g' ? (
                    <div className="max-w-56">
                      <Label htmlFor={`open-g-${o.key}`}>{INV.grossG}</Label>
                      <Input
                        id={`open-g-${o.key}`}
                        inputMode="numeric"
                        aria-label={`${INV.grossG} · ${label}`}
                        value={o.grossG}
                        onChange={(e) => changeOpen(i.id, o.key, { grossG: e.target.value })}
                      />
                    </div>
                  ) : (
                    <div className="flex flex-wrap gap-1" role="group" aria-label={`${INV.tenthsLabel} · ${label}`}>
                      {Array.from({ length: 11 }, (_, t) => (
                        <Button
                          key={t}
                          className="w-12"
                          variant={o.tenths === t ? 'primary' : 'outline'}
                          aria-pressed={o.tenths === t}
                          onClick={() => changeOpen(i.id, o.key, { tenths: t })}
                        >
                          {INV.tenthsOf(t)}
                        </Button>
                      ))}
                    </div>
                  )}
                </fieldset>
              );
            })}
            {i.presentations.length > 0 && (
              <Button
                variant="outline"
                className="self-start"
                aria-label={`${INV.addOpen} · ${i.name}`}
                onClick={() =>
                  change(i.id, (x) => {
                    const first = i.presentations[0]!;
                    return {
                      ...x,
                      open: [
                        ...x.open,
                        { key: nextKey++, presentationId: first.id, mode: weighable(first) ? 'g' : 'tenths', grossG: '', tenths: null },
                      ],
                    };
                  })
                }
              >
                {INV.addOpen}
              </Button>
            )}
          </Card>
        );
      })}
      <FormError message={form.error} />
      <Button type="submit" size="lg" disabled={Object.keys(form.values.rows).length === 0}>
        {INV.countSave}
      </Button>
    </form>
  );
}
