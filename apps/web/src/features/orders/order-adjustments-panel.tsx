import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Gift, Percent, X } from 'lucide-react';
import {
  CreateAdjustmentBodySchema,
  type CreateAdjustmentBody,
  type Order,
  type OrderAdjustment,
  OrderResponseSchema,
} from '@comanda/contract';
import {
  ADJUSTMENT_REASONS,
  activeItems,
  parseDecimal,
  pesosToCents,
  scaleDecimal,
  uncompedUnits,
  type AdjustmentKind,
} from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { PinDialog } from '../../components/pin-dialog.tsx';
import { percentLabel } from '../../components/ticket/ticket-figures.ts';
import { del, post, requireOnline } from '../../lib/api.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useZodForm } from '../../lib/use-zod-form.ts';
import { tableOrderKey } from './order-api.ts';

const L = t.adjustments;
const SELECT =
  'h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-slate-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none';

type Draft = Omit<CreateAdjustmentBody, 'pin'>;
interface AdjustmentFields {
  target: string;
  mode: 'percent' | 'amount';
  value: string;
  units: string;
  reason: (typeof ADJUSTMENT_REASONS)[number];
  note: string;
}

/** What an adjustment reads like: 'Descuento 10% · Toda la cuenta', 'Cortesía · 1 × Cerveza'. */
function describe(
  order: Order,
  a: Pick<OrderAdjustment, 'kind' | 'itemId' | 'units' | 'percentBps'> & { requestedAmount: number | null },
): string {
  const item = a.itemId ? order.items.find((i) => i.id === a.itemId) : undefined;
  const target = item ? L.line(a.kind === 'comp' && a.units ? a.units : item.quantity, item.productName) : L.wholeCheck;
  if (a.kind === 'comp') return L.describeComp(target);
  const value = a.percentBps !== null ? percentLabel(a.percentBps) : money(a.requestedAmount ?? 0);
  return L.describeDiscount(value, target);
}

/**
 * "Descuento" and "Cortesía" on the order screen: on one line or the whole check, with a reason
 * and an admin PIN; the live adjustments are listed with a "Quitar" action (admin PIN too).
 * The server computes every amount; this only asks and shows.
 */
export function OrderAdjustmentsPanel({ order, tableId }: { order: Order; tableId: string }) {
  const qc = useQueryClient();
  const [editing, setEditing] = useState<AdjustmentKind | null>(null);
  const [pending, setPending] = useState<Draft | null>(null);
  const [removing, setRemoving] = useState<OrderAdjustment | null>(null);
  const store = (answer: { order: Order }) => qc.setQueryData(tableOrderKey(tableId), answer.order);
  const add = useMutation({
    mutationFn: (body: CreateAdjustmentBody) => {
      requireOnline(t.app.unavailable);
      return post(OrderResponseSchema, `/api/orders/${order.id}/adjustments`, body);
    },
    onSuccess: store,
  });
  const remove = useMutation({
    mutationFn: ({ id, pin }: { id: string; pin: string }) => {
      requireOnline(t.app.unavailable);
      return del(OrderResponseSchema, `/api/orders/${order.id}/adjustments/${id}`, { pin });
    },
    onSuccess: store,
  });
  const adjustments = order.adjustments ?? [];
  const open = order.status === 'activo';
  if (!open && adjustments.length === 0) return null;

  return (
    <Card className="p-3" data-testid="order-adjustments">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-sm font-semibold text-slate-700">{L.title}</h2>
        {open && activeItems(order.items).length > 0 && (
          <div className="flex gap-2">
            <Button size="sm" variant="outline" onClick={() => setEditing('discount')}>
              <Percent className="h-4 w-4" aria-hidden />
              {L.discount}
            </Button>
            <Button size="sm" variant="outline" onClick={() => setEditing('comp')}>
              <Gift className="h-4 w-4" aria-hidden />
              {L.comp}
            </Button>
          </div>
        )}
      </div>
      {adjustments.length > 0 && (
        <ul className="mt-2 divide-y divide-slate-100 text-sm">
          {adjustments.map((a) => (
            <li key={a.id} className="flex items-center gap-2 py-1.5" data-testid="adjustment-row">
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium">{describe(order, a)}</p>
                <p className="truncate text-xs text-slate-500">
                  {a.reason}
                  {a.note ? ` · ${a.note}` : ''} · {L.authorizedBy(a.authorizedByName)}
                </p>
              </div>
              <span className="tabular-nums">-{money(a.amount)}</span>
              {open && (
                <Button size="icon" variant="ghost" aria-label={`${L.remove}: ${describe(order, a)}`} onClick={() => setRemoving(a)}>
                  <X className="h-4 w-4" aria-hidden />
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {editing && (
        <AdjustmentDialog
          order={order}
          kind={editing}
          onClose={() => setEditing(null)}
          onContinue={(draft) => {
            setEditing(null);
            setPending(draft);
          }}
        />
      )}
      <PinDialog
        open={pending !== null}
        title={L.pinTitle}
        description={pending ? L.pinDescription(describe(order, draftView(pending))) : undefined}
        onClose={() => setPending(null)}
        onSubmit={async (pin) => {
          if (!pending) return;
          await add.mutateAsync({ ...pending, pin });
          toast.success(L.added);
          setPending(null);
        }}
      />
      <PinDialog
        open={removing !== null}
        title={L.removeTitle}
        description={removing ? L.removeDescription(describe(order, removing)) : undefined}
        onClose={() => setRemoving(null)}
        onSubmit={async (pin) => {
          if (!removing) return;
          await remove.mutateAsync({ id: removing.id, pin });
          toast.success(L.removed);
          setRemoving(null);
        }}
      />
    </Card>
  );
}

function draftView(d: Draft) {
  return {
    kind: d.kind,
    itemId: d.itemId ?? null,
    units: d.units ?? null,
    percentBps: d.percentBps ?? null,
    requestedAmount: d.amount ?? null,
  };
}

/** Percent typed as '10' or '12.5' → basis points; null when unreadable or out of range. */
function percentToBps(text: string): number | null {
  const parsed = parseDecimal(text.trim().replace(/%$/, '').trim());
  if (parsed === null || parsed.negative) return null;
  const bps = scaleDecimal(parsed, 2);
  return bps !== null && bps >= 1 && bps <= 10_000 ? bps : null;
}

function AdjustmentDialog({
  order,
  kind,
  onClose,
  onContinue,
}: {
  order: Order;
  kind: AdjustmentKind;
  onClose: () => void;
  onContinue: (draft: Draft) => void;
}) {
  const lines = activeItems(order.items);
  const specs = order.adjustments ?? [];
  const leftOf = (target: string) => {
    const line = lines.find((l) => l.id === target);
    return line ? uncompedUnits(line, specs) : 0;
  };
  /** The request the fields make (without the PIN, asked next), or the screen's words for what is wrong. */
  const draftOf = (v: AdjustmentFields): Draft | string => {
    const base = { kind, reason: v.reason, note: v.note.trim() || null };
    const scope = v.target ? { scope: 'item' as const, itemId: v.target } : { scope: 'order' as const };
    if (v.reason === 'Otro' && !v.note.trim()) return L.noteRequired;
    if (kind === 'comp') {
      if (!v.target) return { ...base, ...scope };
      const n = Number(v.units);
      if (!Number.isInteger(n) || n < 1 || n > leftOf(v.target)) return L.invalidUnits;
      return { ...base, ...scope, units: n };
    }
    if (v.mode === 'percent') {
      const bps = percentToBps(v.value);
      return bps === null ? L.invalidPercent : { ...base, ...scope, percentBps: bps };
    }
    const amount = pesosToCents(v.value);
    return amount === null || amount <= 0 ? L.invalidAmount : { ...base, ...scope, amount };
  };
  const form = useZodForm({
    initial: (): AdjustmentFields => ({
      target: kind === 'comp' && lines[0] ? lines[0].id : '',
      mode: 'percent',
      value: '',
      units: '1',
      reason: ADJUSTMENT_REASONS[0],
      note: '',
    }),
    schema: CreateAdjustmentBodySchema,
    before: (v) => {
      const draft = draftOf(v);
      return typeof draft === 'string' ? draft : null;
    },
    // The contract's checks with a blank PIN: the PIN dialog comes next.
    toInput: (v) => ({ ...(draftOf(v) as Draft), pin: '' }),
    onValid: (_body, v) => onContinue(draftOf(v) as Draft),
  });
  const { values, set } = form;
  const { target, mode, value, units, reason, note } = values;
  const error = form.error;
  const line = lines.find((l) => l.id === target);
  const left = leftOf(target);

  return (
    <Dialog
      open
      onClose={onClose}
      title={kind === 'comp' ? L.compTitle : L.discountTitle}
      className="max-w-md"
      footer={
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={onClose}>
            {L.cancel}
          </Button>
          <Button onClick={form.submit}>{L.continue}</Button>
        </div>
      }
    >
      <form className="space-y-3" onSubmit={form.onSubmit}>
        <div>
          <Label htmlFor="adj-target">{L.scope}</Label>
          <select id="adj-target" className={SELECT} value={target} onChange={(e) => set('target', e.target.value)}>
            <option value="">{L.wholeCheck}</option>
            {lines.map((l) => (
              <option key={l.id} value={l.id}>
                {L.line(l.quantity, l.productName)} · {money(l.productPrice * l.quantity)}
              </option>
            ))}
          </select>
        </div>
        {kind === 'comp' && line && (
          <div>
            <Label htmlFor="adj-units">{L.units}</Label>
            <Input id="adj-units" inputMode="numeric" value={units} onChange={(e) => set('units', e.target.value)} />
            <p className="mt-1 text-xs text-slate-500">{L.unitsLeft(left)}</p>
          </div>
        )}
        {kind === 'discount' && (
          <div>
            <Label htmlFor="adj-mode">{L.mode}</Label>
            <div className="mb-2 grid grid-cols-2 gap-2" id="adj-mode">
              <Button
                variant={mode === 'percent' ? 'primary' : 'outline'}
                onClick={() => set('mode', 'percent')}
                aria-pressed={mode === 'percent'}
              >
                {L.percent}
              </Button>
              <Button
                variant={mode === 'amount' ? 'primary' : 'outline'}
                onClick={() => set('mode', 'amount')}
                aria-pressed={mode === 'amount'}
              >
                {L.amount}
              </Button>
            </div>
            <Label htmlFor="adj-value">{mode === 'percent' ? L.percentLabel : L.amountLabel}</Label>
            <Input id="adj-value" inputMode="decimal" value={value} onChange={(e) => set('value', e.target.value)} data-autofocus />
          </div>
        )}
        <div>
          <Label htmlFor="adj-reason">{L.reason}</Label>
          <select
            id="adj-reason"
            className={SELECT}
            value={reason}
            onChange={(e) => set('reason', e.target.value as (typeof ADJUSTMENT_REASONS)[number])}
          >
            {ADJUSTMENT_REASONS.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
        <div>
          <Label htmlFor="adj-note">{L.note}</Label>
          <Input id="adj-note" maxLength={300} placeholder={L.notePlaceholder} value={note} onChange={(e) => set('note', e.target.value)} />
        </div>
        {error && (
          <p className="text-sm text-rose-700" role="alert">
            {error}
          </p>
        )}
      </form>
    </Dialog>
  );
}
