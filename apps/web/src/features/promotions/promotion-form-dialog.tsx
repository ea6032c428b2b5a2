import { CATEGORIES, centsToPesos, formatMinute, pesosToCents } from '@comanda/domain';
import { PromotionBodySchema, type Product, type Promotion, type PromotionBody } from '@comanda/contract';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { Field } from '../../components/ui/field.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { t } from '../../lib/i18n/es-MX.ts';
import { useZodForm } from '../../lib/use-zod-form.ts';
import { CancelButton } from '../../components/ui/cancel-button.tsx';

const L = t.promotions;
type Kind = PromotionBody['kind'];

interface Draft {
  name: string;
  kind: Kind;
  percent: string;
  fixedPrice: string;
  buy: string;
  pay: string;
  days: number[];
  start: string;
  end: string;
  productIds: string[];
  categories: string[];
  active: boolean;
}

function draftOf(p: Promotion | null): Draft {
  if (!p) {
    return {
      name: '',
      kind: 'percent',
      percent: '',
      fixedPrice: '',
      buy: '2',
      pay: '1',
      days: [],
      start: '17:00',
      end: '19:00',
      productIds: [],
      categories: [],
      active: true,
    };
  }
  return {
    name: p.name,
    kind: p.kind,
    percent: p.percentBps === null ? '' : String(p.percentBps / 100),
    fixedPrice: p.fixedPrice === null ? '' : centsToPesos(p.fixedPrice),
    buy: p.buy === null ? '2' : String(p.buy),
    pay: p.pay === null ? '1' : String(p.pay),
    days: [...p.days],
    start: formatMinute(p.startMinute),
    end: formatMinute(p.endMinute),
    productIds: [...p.productIds],
    categories: [...p.categories],
    active: p.active,
  };
}

/** '22:30' → 1350; anything unreadable → NaN (the contract then says the time is not valid). */
function minuteOf(time: string): number {
  const match = /^(\d{1,2}):(\d{2})$/.exec(time.trim());
  return match ? Number(match[1]) * 60 + Number(match[2]) : Number.NaN;
}
const numberOrNull = (s: string) => (s.trim() === '' ? null : Number(s));
const toggle = <T,>(list: T[], value: T, on: boolean) => (on ? [...list, value] : list.filter((v) => v !== value));

const SELECT =
  'h-11 w-full rounded-lg border border-slate-300 bg-white px-3 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30';

/** Add or edit a promotion; the contract checks the form, the server checks overlaps. */
export function PromotionFormDialog({
  promotion,
  products,
  busy,
  onClose,
  onSubmit,
}: {
  promotion: Promotion | null;
  products: Product[];
  busy: boolean;
  onClose: () => void;
  onSubmit: (body: PromotionBody) => void;
}) {
  const form = useZodForm({
    initial: () => draftOf(promotion),
    schema: PromotionBodySchema,
    toInput: (d: Draft) => {
      const percent = numberOrNull(d.percent);
      return {
        name: d.name,
        kind: d.kind,
        percentBps: d.kind === 'percent' ? (percent === null ? null : Math.round(percent * 100)) : null,
        fixedPrice: d.kind === 'fixed' ? (d.fixedPrice.trim() === '' ? null : pesosToCents(d.fixedPrice)) : null,
        buy: d.kind === 'nxm' ? numberOrNull(d.buy) : null,
        pay: d.kind === 'nxm' ? numberOrNull(d.pay) : null,
        days: [...d.days].sort(),
        startMinute: minuteOf(d.start),
        endMinute: minuteOf(d.end),
        productIds: d.productIds,
        categories: d.categories,
        active: d.active,
      };
    },
    onValid: (body: PromotionBody) => onSubmit(body),
  });
  const { values: draft, set } = form;

  return (
    <Dialog
      open
      onClose={onClose}
      locked={busy}
      title={promotion ? L.editTitle : L.add}
      variant="sheet"
      footer={
        <>
          <CancelButton onClick={onClose} disabled={busy} />
          <Button type="submit" form="promotion-form" variant="accent" disabled={busy}>
            {busy ? L.saving : t.app.save}
          </Button>
        </>
      }
    >
      <form id="promotion-form" onSubmit={form.onSubmit} className="space-y-3" noValidate>
        <Field id="promotion-name" label={L.name}>
          <Input id="promotion-name" value={draft.name} onChange={(e) => set('name', e.target.value)} maxLength={80} data-autofocus />
        </Field>
        <div className="grid grid-cols-2 gap-3">
          <div>
            <Label htmlFor="promotion-kind">{L.kind}</Label>
            <select id="promotion-kind" value={draft.kind} onChange={(e) => set('kind', e.target.value as Kind)} className={SELECT}>
              {(['percent', 'fixed', 'nxm'] as const).map((k) => (
                <option key={k} value={k}>
                  {L.kinds[k]}
                </option>
              ))}
            </select>
          </div>
          {draft.kind === 'percent' && (
            <Field id="promotion-percent" label={L.percent}>
              <Input id="promotion-percent" inputMode="decimal" value={draft.percent} onChange={(e) => set('percent', e.target.value)} />
            </Field>
          )}
          {draft.kind === 'fixed' && (
            <Field id="promotion-fixed" label={L.fixedPrice}>
              <Input
                id="promotion-fixed"
                inputMode="decimal"
                placeholder="0.00"
                value={draft.fixedPrice}
                onChange={(e) => set('fixedPrice', e.target.value)}
              />
            </Field>
          )}
          {draft.kind === 'nxm' && (
            <div className="grid grid-cols-2 gap-2">
              <Field id="promotion-buy" label={L.buy}>
                <Input id="promotion-buy" inputMode="numeric" value={draft.buy} onChange={(e) => set('buy', e.target.value)} />
              </Field>
              <Field id="promotion-pay" label={L.pay}>
                <Input id="promotion-pay" inputMode="numeric" value={draft.pay} onChange={(e) => set('pay', e.target.value)} />
              </Field>
            </div>
          )}
        </div>
        <fieldset>
          <legend className="mb-1 text-sm font-medium text-slate-700">{L.days}</legend>
          <div className="flex flex-wrap gap-2">
            {L.weekdaysShort.map((label, day) => (
              <label key={label} className="flex items-center gap-1 rounded-full border border-slate-300 px-3 py-1 text-sm">
                <input
                  type="checkbox"
                  checked={draft.days.includes(day)}
                  onChange={(e) => set('days', toggle(draft.days, day, e.target.checked))}
                  className="h-4 w-4 accent-brand-600"
                />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="grid grid-cols-2 gap-3">
          <Field id="promotion-start" label={L.start}>
            <Input id="promotion-start" type="time" value={draft.start} onChange={(e) => set('start', e.target.value)} />
          </Field>
          <Field id="promotion-end" label={L.end}>
            <Input id="promotion-end" type="time" value={draft.end} onChange={(e) => set('end', e.target.value)} />
          </Field>
        </div>
        <fieldset>
          <legend className="mb-1 text-sm font-medium text-slate-700">{L.categories}</legend>
          <div className="flex flex-wrap gap-2">
            {CATEGORIES.map((c) => (
              <label key={c} className="flex items-center gap-1 rounded-full border border-slate-300 px-3 py-1 text-sm">
                <input
                  type="checkbox"
                  checked={draft.categories.includes(c)}
                  onChange={(e) => set('categories', toggle(draft.categories, c, e.target.checked))}
                  className="h-4 w-4 accent-brand-600"
                />
                {c}
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset>
          <legend className="mb-1 text-sm font-medium text-slate-700">{L.products}</legend>
          <div className="grid max-h-48 grid-cols-1 gap-1 overflow-y-auto rounded-lg border border-slate-200 p-2 sm:grid-cols-2">
            {products.map((p) => (
              <label key={p.id} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={draft.productIds.includes(p.id)}
                  onChange={(e) => set('productIds', toggle(draft.productIds, p.id, e.target.checked))}
                  className="h-4 w-4 accent-brand-600"
                />
                {p.name}
              </label>
            ))}
          </div>
        </fieldset>
        <label className="flex items-center gap-2 text-sm font-medium text-slate-700">
          <input
            type="checkbox"
            checked={draft.active}
            onChange={(e) => set('active', e.target.checked)}
            className="h-4 w-4 accent-emerald-600"
          />
          {L.active}
        </label>
        <FormError message={form.error} />
      </form>
    </Dialog>
  );
}
