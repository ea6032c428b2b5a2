import { useState, type FormEvent } from 'react';
import { CATEGORIES, DEFAULT_CATEGORY, centsToPesos, pesosToCents, validateProductInput, type Category, type Cents } from '@comanda/domain';
import type { Product, ProductBody } from '@comanda/contract';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input, Label, Textarea } from '../../components/ui/input.tsx';
import { t } from '../../lib/i18n/es-MX.ts';
import { FormError } from '../../components/ui/form-error.tsx';

interface Draft {
  name: string;
  description: string;
  price: string;
  category: Category;
  imageUrl: string;
  available: boolean;
}

function draftOf(product: Product | null): Draft {
  if (!product) return { name: '', description: '', price: '', category: DEFAULT_CATEGORY, imageUrl: '', available: true };
  const category = (CATEGORIES as readonly string[]).includes(product.category) ? (product.category as Category) : DEFAULT_CATEGORY;
  return {
    name: product.name,
    description: product.description,
    price: centsToPesos(product.price as Cents),
    category,
    imageUrl: product.imageUrl ?? '',
    available: product.available,
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
  const [draft, setDraft] = useState<Draft>(() => draftOf(product));
  const [error, setError] = useState<string | null>(null);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const price = draft.price.trim() === '' ? null : pesosToCents(draft.price);
    const problem = validateProductInput({ name: draft.name, priceCents: price });
    if (problem || price === null) {
      setError(problem ?? t.products.required);
      return;
    }
    setError(null);
    onSubmit({
      name: draft.name.trim(),
      description: draft.description.trim(),
      price,
      category: draft.category,
      imageUrl: draft.imageUrl.trim() || null,
      available: draft.available,
    });
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      locked={busy}
      title={product ? t.products.editTitle : t.products.add}
      variant="sheet"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={busy}>
            {t.app.cancel}
          </Button>
          <Button type="submit" form="product-form" variant="accent" disabled={busy}>
            {busy ? t.products.saving : t.app.save}
          </Button>
        </>
      }
    >
      <form id="product-form" onSubmit={submit} className="space-y-3" noValidate>
        <div>
          <Label htmlFor="product-name">{t.products.name}</Label>
          <Input id="product-name" value={draft.name} onChange={(e) => set('name', e.target.value)} maxLength={120} data-autofocus />
        </div>
        <div className="grid grid-cols-2 gap-3">
          <div>
            <Label htmlFor="product-price">{t.products.pricePesos}</Label>
            <Input
              id="product-price"
              inputMode="decimal"
              placeholder="0.00"
              value={draft.price}
              onChange={(e) => set('price', e.target.value)}
            />
          </div>
          <div>
            <Label htmlFor="product-category">{t.products.category}</Label>
            <select
              id="product-category"
              value={draft.category}
              onChange={(e) => set('category', e.target.value as Category)}
              className="h-10 w-full rounded-lg border border-slate-300 bg-white px-3 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30"
            >
              {CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div>
          <Label htmlFor="product-description">{t.products.description}</Label>
          <Textarea
            id="product-description"
            rows={2}
            value={draft.description}
            onChange={(e) => set('description', e.target.value)}
            maxLength={500}
          />
        </div>
        <div>
          <Label htmlFor="product-image">{t.products.imageUrl}</Label>
          <Input
            id="product-image"
            type="url"
            placeholder="https://…"
            value={draft.imageUrl}
            onChange={(e) => set('imageUrl', e.target.value)}
          />
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
        <FormError message={error} />
      </form>
    </Dialog>
  );
}
