import { useMemo, useState, type ReactNode } from 'react';
import { toast } from './inv-toast.ts';
import { useQueryClient } from '@tanstack/react-query';
import { RecipesResponseSchema, type Insumo, type ModifierGroup, type Product } from '@comanda/contract';
import { formatQuantity, parseQuantity, UNIT_LABELS } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { errorMessage } from '../../lib/api.ts';
import { INV } from './texts.ts';
import { useKeyedWrite, useRecipeCatalogue, useRecipes } from './inventory-api.ts';
import { plainQuantity, SELECT } from './insumos-tab.tsx';

type Item = { insumoId: string; amount: number };
type Row = { insumoId: string; amount: string };

const byName = new Intl.Collator('es-MX', { sensitivity: 'base', numeric: true });

/** "60 ml Tequila · 1 pieza Limón": a recipe read aloud. */
function describe(items: readonly Item[], insumos: ReadonlyMap<string, Insumo>): string {
  return items
    .map((r) => {
      const i = insumos.get(r.insumoId);
      return i ? `${formatQuantity(r.amount, i.unit)} ${i.name}` : '';
    })
    .filter(Boolean)
    .join(' · ');
}

/**
 * One recipe's rows: an insumo and its amount per unit sold, typed in the insumo's unit. `id`
 * names the inputs (a product or an option), `extra` sits beside the save button.
 */
function RecipeEditor({
  id,
  title,
  items,
  insumos,
  onSave,
  extra,
}: {
  id: string;
  title: string;
  items: readonly Item[];
  insumos: Insumo[];
  onSave: (items: Item[]) => Promise<void>;
  extra?: ReactNode;
}) {
  const byId = useMemo(() => new Map(insumos.map((i) => [i.id, i])), [insumos]);
  const [rows, setRows] = useState<Row[]>(() =>
    items.map((r) => ({ insumoId: r.insumoId, amount: plainQuantity(r.amount, byId.get(r.insumoId)?.unit ?? 'ml') })),
  );
  const [saving, setSaving] = useState(false);
  const set = (i: number, patch: Partial<Row>) => setRows((list) => list.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const save = async () => {
    const parsed: Item[] = [];
    for (const r of rows) {
      const insumo = byId.get(r.insumoId);
      if (!insumo) continue;
      const amount = parseQuantity(r.amount || '0', insumo.unit);
      if (amount === null || amount < 0) {
        toast.error(INV.badQuantity(UNIT_LABELS[insumo.unit]));
        return;
      }
      parsed.push({ insumoId: insumo.id, amount });
    }
    setSaving(true);
    try {
      await onSave(parsed);
    } finally {
      setSaving(false);
    }
  };
  return (
    <section className="flex flex-col gap-2 rounded-lg border border-slate-200 p-3" aria-label={title} data-testid={`receta-${title}`}>
      <h3 className="font-semibold">{title}</h3>
      {rows.length === 0 && <p className="text-sm text-slate-600">{INV.noRecipe}</p>}
      {rows.map((r, i) => {
        const unit = byId.get(r.insumoId)?.unit;
        return (
          <div key={i} className="grid items-end gap-2 sm:grid-cols-[2fr_1fr_auto]">
            <div>
              <Label htmlFor={`${id}-insumo-${i}`}>{INV.insumo}</Label>
              <select id={`${id}-insumo-${i}`} className={SELECT} value={r.insumoId} onChange={(e) => set(i, { insumoId: e.target.value })}>
                <option value="">—</option>
                {insumos.map((x) => (
                  <option key={x.id} value={x.id}>
                    {x.name}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <Label htmlFor={`${id}-amount-${i}`}>
                {INV.amount}
                {unit ? ` (${UNIT_LABELS[unit]})` : ''}
              </Label>
              <Input id={`${id}-amount-${i}`} inputMode="decimal" value={r.amount} onChange={(e) => set(i, { amount: e.target.value })} />
            </div>
            <Button variant="ghost" onClick={() => setRows((list) => list.filter((_, j) => j !== i))}>
              {INV.removeIngredient}
            </Button>
          </div>
        );
      })}
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="outline" onClick={() => setRows((list) => [...list, { insumoId: '', amount: '' }])}>
          {INV.addIngredient}
        </Button>
        {extra}
        <span className="flex-1" />
        <Button onClick={() => void save()} disabled={saving}>
          {INV.saveRecipe}
        </Button>
      </div>
    </section>
  );
}

/** The groups a product offers: attached to it or to its whole category. */
const groupsOf = (product: Product, groups: readonly ModifierGroup[]) =>
  groups.filter((g) => g.productIds.includes(product.id) || g.categories.includes(product.category));

/** Recetas: what each product consumes per unit sold, and what each of its modifier options adds. */
export function RecipesTab({ insumos }: { insumos: Insumo[] }) {
  const qc = useQueryClient();
  const recipes = useRecipes();
  const { products, groups } = useRecipeCatalogue();
  const write = useKeyedWrite('recipe');
  const [productId, setProductId] = useState('');
  const insumoById = useMemo(() => new Map(insumos.map((i) => [i.id, i])), [insumos]);
  const sorted = useMemo(() => [...products].sort((a, b) => byName.compare(a.name, b.name)), [products]);
  const product = products.find((p) => p.id === productId) ?? null;
  const productRecipe = recipes.data?.products.find((p) => p.productId === productId);
  const [auto, setAuto] = useState<boolean | null>(null);
  const autoAgotado = auto ?? productRecipe?.autoAgotado ?? false;
  const optionItems = (optionId: string) => recipes.data?.options.find((o) => o.optionId === optionId)?.items ?? [];
  const saved = async () => {
    toast.success(INV.recipeSaved);
    await qc.invalidateQueries({ queryKey: ['inventory'] });
  };
  const saveProduct = async (items: Item[]) => {
    try {
      await write(RecipesResponseSchema, 'PUT', `/api/inventory/recipes/products/${productId}`, { items, autoAgotado });
      setAuto(null);
      await saved();
    } catch (err) {
      toast.error(errorMessage(err, INV.saveError));
    }
  };
  const saveOption = async (optionId: string, items: Item[]) => {
    try {
      await write(RecipesResponseSchema, 'PUT', `/api/inventory/recipes/options/${optionId}`, { items });
      await saved();
    } catch (err) {
      toast.error(errorMessage(err, INV.saveError));
    }
  };
  const withRecipes = (recipes.data?.products ?? [])
    .filter((r) => r.items.length > 0)
    .map((r) => ({ ...r, product: products.find((p) => p.id === r.productId) }))
    .filter((r) => r.product)
    .sort((a, b) => byName.compare(a.product!.name, b.product!.name));
  const ready = recipes.isSuccess;
  return (
    <div className="grid gap-4 lg:grid-cols-[1fr_2fr]">
      <Card className="flex flex-col gap-2 p-4">
        <h2 className="text-lg font-semibold">{INV.withRecipes}</h2>
        {withRecipes.length === 0 && <p className="text-slate-600">{INV.noRecipes}</p>}
        <ul className="flex flex-col gap-1">
          {withRecipes.map((r) => (
            <li key={r.productId}>
              <button
                type="button"
                className="min-h-11 w-full rounded-lg px-2 py-1 text-left hover:bg-slate-100 aria-[current=true]:bg-slate-100"
                aria-current={r.productId === productId}
                onClick={() => {
                  setProductId(r.productId);
                  setAuto(null);
                }}
              >
                <span className="font-medium">{r.product!.name}</span>
                <span className="block text-sm text-slate-600">{describe(r.items, insumoById)}</span>
              </button>
            </li>
          ))}
        </ul>
      </Card>
      <Card className="flex flex-col gap-3 p-4">
        <div>
          <Label htmlFor="recipe-product">{INV.product}</Label>
          <select
            id="recipe-product"
            className={SELECT}
            value={productId}
            onChange={(e) => {
              setProductId(e.target.value);
              setAuto(null);
            }}
          >
            <option value="">{INV.chooseProduct}</option>
            {sorted.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name} · {p.category}
              </option>
            ))}
          </select>
        </div>
        {product && ready && (
          <>
            <RecipeEditor
              key={`p-${product.id}`}
              id={`p-${product.id}`}
              title={INV.recipeOf(product.name)}
              items={productRecipe?.items ?? []}
              insumos={insumos}
              onSave={saveProduct}
              extra={
                <label className="flex min-h-11 items-center gap-2 text-sm">
                  <input type="checkbox" className="h-5 w-5" checked={autoAgotado} onChange={(e) => setAuto(e.target.checked)} />
                  {INV.autoAgotado}
                </label>
              }
            />
            <h3 className="font-semibold">{INV.modifiersOf}</h3>
            {groupsOf(product, groups).length === 0 && <p className="text-sm text-slate-600">{INV.noModifiers}</p>}
            {groupsOf(product, groups).flatMap((g) =>
              g.options.map((o) => (
                <RecipeEditor
                  key={`o-${o.id}`}
                  id={`o-${o.id}`}
                  title={INV.optionRecipe(g.name, o.name)}
                  items={optionItems(o.id)}
                  insumos={insumos}
                  onSave={(items) => saveOption(o.id, items)}
                />
              )),
            )}
          </>
        )}
      </Card>
    </div>
  );
}
