import { useMemo, useState } from 'react';
import { toast } from 'sonner';
import { Download, Package, Plus, Upload } from 'lucide-react';
import { CATEGORIES } from '@comanda/domain';
import type { Product, ProductBody } from '@comanda/contract';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { EmptyState, ErrorState } from '../../components/ui/empty-state.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { cn } from '../../components/ui/cn.ts';
import { errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { ProductCard } from './product-card.tsx';
import { ProductFormDialog } from './product-form-dialog.tsx';
import { MENU_EXPORT_URL, useAllProducts, useProductMutations } from './products-api.ts';
import { MenuImportDialog } from './menu-import-dialog.tsx';
import { SearchInput } from '../../components/ui/search-input.tsx';
import { Tabs } from '../../components/ui/tabs.tsx';
import { ModifiersSection } from './modifiers-section.tsx';

const ALL = 'all';
const byName = new Intl.Collator('es-MX', { sensitivity: 'base', numeric: true });
const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/** 'new' opens an empty form; a product opens it filled; null keeps it closed. */
type Editing = Product | 'new' | null;

/** Productos and its Modificadores, one tab each. */
export function ProductsPage() {
  const [view, setView] = useState<'products' | 'modifiers'>('products');
  const products = useAllProducts();
  return (
    <div className="space-y-4">
      <Tabs
        label={t.products.title}
        value={view}
        onChange={setView}
        tabs={[
          { value: 'products', label: t.products.title },
          { value: 'modifiers', label: t.modifiers.manage },
        ]}
      />
      {view === 'products' ? <ProductsCatalogue /> : <ModifiersSection products={products.data ?? []} />}
    </div>
  );
}

function ProductsCatalogue() {
  const products = useAllProducts();
  const { create, update, remove, availability } = useProductMutations();
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState<string>(ALL);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Product | null>(null);
  const [importing, setImporting] = useState(false);

  const visible = useMemo(() => {
    const needle = fold(query.trim());
    return (products.data ?? [])
      .filter((p) => category === ALL || p.category === category)
      .filter((p) => !needle || fold(`${p.name} ${p.description} ${p.category}`).includes(needle))
      .sort((a, b) => byName.compare(a.name, b.name));
  }, [products.data, query, category]);

  const save = (body: ProductBody) => {
    if (editing === 'new') {
      create.mutate(body, {
        onSuccess: () => {
          toast.success(t.products.created);
          setEditing(null);
        },
        onError: (err) => toast.error(errorMessage(err, t.products.createError)),
      });
    } else if (editing) {
      update.mutate(
        { id: editing.id, body },
        {
          onSuccess: () => {
            toast.success(t.products.updated);
            setEditing(null);
          },
          onError: (err) => toast.error(errorMessage(err, t.products.updateError)),
        },
      );
    }
  };

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        toast.success(t.products.deleted);
        setDeleting(null);
      },
      onError: (err) => toast.error(errorMessage(err, t.products.deleteError)),
    });
  };

  const toggle = (product: Product, available: boolean) =>
    availability.mutate({ id: product.id, available }, { onError: (err) => toast.error(errorMessage(err, t.products.updateError)) });

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">{t.products.title}</h1>
        <div className="flex flex-wrap gap-2">
          <a
            href={MENU_EXPORT_URL}
            download="menu.csv"
            className="inline-flex h-11 items-center gap-2 rounded-md border border-slate-300 bg-white px-4 text-sm font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
          >
            <Download className="h-4 w-4" aria-hidden />
            {t.menuCsv.export}
          </a>
          <Button variant="outline" onClick={() => setImporting(true)}>
            <Upload className="h-4 w-4" aria-hidden />
            {t.menuCsv.import}
          </Button>
          <Button variant="accent" onClick={() => setEditing('new')}>
            <Plus className="h-4 w-4" aria-hidden />
            {t.products.add}
          </Button>
        </div>
      </div>
      <SearchInput value={query} onChange={setQuery} placeholder={t.products.search} label={t.products.search} />
      <div role="group" aria-label={t.products.category} className="-mx-1 flex gap-2 overflow-x-auto px-1 pb-1 sm:flex-wrap">
        {[ALL, ...CATEGORIES].map((c) => (
          <button
            key={c}
            type="button"
            aria-pressed={category === c}
            onClick={() => setCategory(c)}
            className={cn(
              'h-11 whitespace-nowrap rounded-full border px-4 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 lg:h-9',
              category === c ? 'border-slate-900 bg-slate-900 text-white' : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-100',
            )}
          >
            {c === ALL ? t.products.all : c}
          </button>
        ))}
      </div>

      {products.isPending ? (
        <Spinner />
      ) : products.isError ? (
        <ErrorState message={t.products.loadError} onRetry={() => void products.refetch()} />
      ) : visible.length === 0 ? (
        <EmptyState icon={<Package className="h-8 w-8" aria-hidden />} title={t.products.empty} />
      ) : (
        <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3 2xl:grid-cols-4">
          {visible.map((p) => (
            <ProductCard
              key={p.id}
              product={p}
              onEdit={() => setEditing(p)}
              onDelete={() => setDeleting(p)}
              onToggle={(v) => toggle(p, v)}
              toggling={availability.isPending && availability.variables?.id === p.id}
            />
          ))}
        </div>
      )}

      {editing && (
        <ProductFormDialog
          key={editing === 'new' ? 'new' : editing.id}
          open
          product={editing === 'new' ? null : editing}
          busy={create.isPending || update.isPending}
          onClose={() => setEditing(null)}
          onSubmit={save}
        />
      )}
      <MenuImportDialog open={importing} onClose={() => setImporting(false)} />
      <ConfirmDialog
        open={deleting !== null}
        title={t.products.deleteTitle}
        message={t.products.confirmDelete}
        confirmLabel={t.products.remove}
        danger
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}
