import { ArrowLeft } from 'lucide-react';
import { AddUnitsBodySchema, type Product } from '@comanda/contract';
import { Button } from '../../components/ui/button.tsx';
import { Label, Textarea } from '../../components/ui/input.tsx';
import { PromoBadge } from '../../components/promo-badge.tsx';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useZodForm } from '../../lib/use-zod-form.ts';
import { QuantityStepper, quantityInput } from './quantity-dialog.tsx';
import type { PickedProduct } from './use-round.ts';
import { useProductModifiers } from './use-product-modifiers.tsx';

type Choice = Pick<PickedProduct, 'optionIds' | 'unitPrice' | 'modifierLabels'>;

/** The quantity and notes step: its fields checked by the contract's quantity, then the product's options. */
function useSelectedProduct(product: Product, onAdd: (quantity: number, notes: string | null, choice: Choice) => Promise<void>) {
  const modifiers = useProductModifiers(product);
  const form = useZodForm({
    initial: { quantity: '1', notes: '' },
    schema: AddUnitsBodySchema,
    toInput: (v: { quantity: string; notes: string }) => quantityInput(v.quantity),
    onValid: ({ quantity }, v) => {
      const choice = modifiers.check();
      if (!choice) return;
      void onAdd(quantity, v.notes.trim() === '' ? null : v.notes.trim(), choice);
    },
  });
  const quantity = Number(form.values.quantity);
  return {
    form,
    modifiers,
    total: money(modifiers.unitPrice * (quantity > 0 ? Math.floor(quantity) : 1)),
    setQuantity: (v: string) => {
      form.setError(null);
      form.set('quantity', v);
    },
  };
}

export function SelectedProduct({
  product,
  busy,
  onBack,
  onAdd,
}: {
  product: Product;
  busy: boolean;
  onBack: () => void;
  onAdd: (quantity: number, notes: string | null, choice: Choice) => Promise<void>;
}) {
  const { form, modifiers, total, setQuantity } = useSelectedProduct(product, onAdd);
  return (
    <form className="flex flex-col gap-4" onSubmit={form.onSubmit}>
      <div className="flex items-start justify-between gap-3 rounded-lg bg-slate-50 p-3">
        <div className="min-w-0">
          <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">{t.picker.selected}</p>
          <p className="font-semibold">{product.name}</p>
          <p className="text-sm text-slate-500">
            {product.category} · {money(product.price)}
          </p>
          <PromoBadge productId={product.id} />
        </div>
        <Button variant="outline" size="sm" onClick={onBack} disabled={busy}>
          <ArrowLeft className="h-4 w-4" aria-hidden />
          {t.picker.change}
        </Button>
      </div>
      {modifiers.element}
      <div>
        <Label>{t.picker.quantity}</Label>
        <QuantityStepper value={form.values.quantity} onChange={setQuantity} />
        <p role="alert" className="mt-1 min-h-5 text-sm text-rose-700">
          {form.error}
        </p>
      </div>
      <div>
        <Label htmlFor="picker-notes">{t.picker.notes}</Label>
        <Textarea
          id="picker-notes"
          rows={2}
          maxLength={300}
          value={form.values.notes}
          onChange={(e) => form.set('notes', e.target.value)}
          placeholder={t.picker.notesPlaceholder}
        />
      </div>
      <Button type="submit" variant="accent" size="lg" disabled={busy}>
        {busy ? t.app.loading : `${t.picker.add} · ${total}`}
      </Button>
    </form>
  );
}
