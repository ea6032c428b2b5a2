import {
  CATEGORIES,
  DEFAULT_CATEGORY,
  DEFAULT_SAT_PRODUCT_KEY,
  DEFAULT_SAT_UNIT_KEY,
  SAT_UNIT_KEYS,
  TAX_TREATMENTS,
  TAX_TREATMENT_LABELS,
  centsToPesos,
  parseScaled,
  pesosToCents,
  type Category,
  type TaxTreatment,
} from '@comanda/domain';
import { ProductBodySchema, type Product, type ProductBody } from '@comanda/contract';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input, Label, Textarea } from '../../components/ui/input.tsx';
import { Field } from '../../components/ui/field.tsx';
import { t } from '../../lib/i18n/es-MX.ts';
import { FormError } from '../../components/ui/form-error.tsx';
import { useZodForm } from '../../lib/use-zod-form.ts';
import { CancelButton } from '../../components/ui/cancel-button.tsx';

interface Draft {
  name: string;
  description: string;
  price: string;
  category: Category;
  imageUrl: string;
  available: boolean;
  /** '': the site's default (a new product). */
  taxTreatment: TaxTreatment | '';
  satProductKey: string;
  satUnitKey: string;
  /** IEPS in percent as typed; '': none. */
  ieps: string;
}

const SELECT =
  'h-11 w-full rounded-lg border border-slate-300 bg-white px-3 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30';
const NEW_TAXES = { taxTreatment: '', satProductKey: DEFAULT_SAT_PRODUCT_KEY, satUnitKey: DEFAULT_SAT_UNIT_KEY, ieps: '' } as const;

function draftOf(product: Product | null): Draft {
  if (!product) return { name: '', description: '', price: '', category: DEFAULT_CATEGORY, imageUrl: '', available: true, ...NEW_TAXES };
  const category = (CATEGORIES as readonly string[]).includes(product.category) ? (product.category as Category) : DEFAULT_CATEGORY;
  return {
    name: product.name,
    description: product.description,
    price: centsToPesos(product.price),
    category,
    imageUrl: product.imageUrl ?? '',
    available: product.available,
    taxTreatment: product.taxTreatment ?? '',
    satProductKey: product.satProductKey ?? DEFAULT_SAT_PRODUCT_KEY,
    satUnitKey: product.satUnitKey ?? DEFAULT_SAT_UNIT_KEY,
    ieps: product.iepsRateBp ? String(product.iepsRateBp / 100) : '',
  };
}

/** Add or edit: prices are typed in pesos and sent in centavos. */
export function ProductFormDialog({
  product,
  open,
  busy,
  onClose,
  onSubmit,
}: {
  product: Product | null;
  open: boolean;
  busy: boolean;
  onClose: () => void;
  onSubmit: (body: ProductBody) => void;
}) {
  const form = useZodForm({
    initial: () => draftOf(product),
    schema: ProductBodySchema,
    // Pesos as typed → centavos; an empty or unreadable price is missing (the contract's one message for both).
    toInput: (d: Draft) => ({
      name: d.name,
      description: d.description,
      price: d.price.trim() === '' ? null : pesosToCents(d.price),
      category: d.category,
      imageUrl: d.imageUrl.trim() || null,
      available: d.available,
      ...(d.taxTreatment ? { taxTreatment: d.taxTreatment } : {}),
      satProductKey: d.satProductKey.trim(),
      satUnitKey: d.satUnitKey.trim(),
      // Percent as typed → basis points; unreadable stays a number the contract refuses.
      iepsRateBp: d.ieps.trim() === '' ? null : (parseScaled(d.ieps, 2) ?? -1),
    }),
    onValid: (body: ProductBody) => onSubmit(body),
  });
  const { values: draft, set } = form;

  return (
    <Dialog
      open={open}
      onClose={onClose}
      locked={busy}
      title={product ? t.products.editTitle : t.products.add}
      variant="sheet"
      footer={
        <>
          <CancelButton onClick={onClose} disabled={busy} />
          <Button type="submit" form="product-form" variant="accent" disabled={busy}>
            {busy ? t.products.saving : t.app.save}
          </Button>
        </>
      }
    >
      <form id="product-form" onSubmit={form.onSubmit} className="space-y-3" noValidate>
        <Field id="product-name" label={t.products.name}>
          <Input id="product-name" value={draft.name} onChange={(e) => set('name', e.target.value)} maxLength={120} data-autofocus />
        </Field>
        <div className="grid grid-cols-2 gap-3">
          <Field id="product-price" label={t.products.pricePesos}>
            <Input
              id="product-price"
              inputMode="decimal"
              placeholder="0.00"
              value={draft.price}
              onChange={(e) => set('price', e.target.value)}
            />
          </Field>
          <div>
            <Label htmlFor="product-category">{t.products.category}</Label>
            <select
              id="product-category"
              value={draft.category}
              onChange={(e) => set('category', e.target.value as Category)}
              className="h-11 w-full rounded-lg border border-slate-300 bg-white px-3 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
            >
              {CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </div>
        </div>
        <Field id="product-description" label={t.products.description}>
          <Textarea
            id="product-description"
            rows={2}
            value={draft.description}
            onChange={(e) => set('description', e.target.value)}
            maxLength={500}
          />
        </Field>
        <Field id="product-image" label={t.products.imageUrl}>
          <Input
            id="product-image"
            type="url"
            placeholder="https://…"
            value={draft.imageUrl}
            onChange={(e) => set('imageUrl', e.target.value)}
          />
        </Field>
        <div className="grid grid-cols-2 gap-3">
          <Field id="product-tax" label={t.fiscal.taxTreatment}>
            <select
              id="product-tax"
              className={SELECT}
              value={draft.taxTreatment}
              onChange={(e) => set('taxTreatment', e.target.value as TaxTreatment | '')}
            >
              {draft.taxTreatment === '' && <option value="">{t.fiscal.defaultIva}</option>}
              {TAX_TREATMENTS.map((tr) => (
                <option key={tr} value={tr}>
                  {TAX_TREATMENT_LABELS[tr]}
                </option>
              ))}
            </select>
          </Field>
          <Field id="product-ieps" label={t.fiscal.ieps}>
            <Input
              id="product-ieps"
              inputMode="decimal"
              placeholder={t.fiscal.iepsHint}
              value={draft.ieps}
              onChange={(e) => set('ieps', e.target.value)}
            />
          </Field>
          <Field id="product-sat-key" label={t.fiscal.satProductKey}>
            <Input
              id="product-sat-key"
              inputMode="numeric"
              maxLength={8}
              value={draft.satProductKey}
              onChange={(e) => set('satProductKey', e.target.value)}
            />
          </Field>
          <Field id="product-sat-unit" label={t.fiscal.satUnitKey}>
            <Input
              id="product-sat-unit"
              list="product-sat-units"
              maxLength={3}
              value={draft.satUnitKey}
              onChange={(e) => set('satUnitKey', e.target.value.toUpperCase())}
            />
            <datalist id="product-sat-units">
              {SAT_UNIT_KEYS.map((u) => (
                <option key={u.code} value={u.code}>
                  {u.name}
                </option>
              ))}
            </datalist>
          </Field>
        </div>
        <label className="flex items-center gap-2 text-sm font-medium text-slate-700">
          <input
            type="checkbox"
            checked={draft.available}
            onChange={(e) => set('available', e.target.checked)}
            className="h-4 w-4 accent-emerald-600"
          />
          {t.products.available}
        </label>
        <FormError message={form.error} />
      </form>
    </Dialog>
  );
}
