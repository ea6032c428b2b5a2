import { ProductsResponseSchema } from '@comanda/contract';
import { useState } from 'react';
import { toast } from 'sonner';
import { Plus, Tag } from 'lucide-react';
import { formatMinute, promotionKindLabel } from '@comanda/domain';
import type { Promotion, PromotionBody } from '@comanda/contract';
import { useQuery } from '@tanstack/react-query';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { EmptyState, ErrorState } from '../../components/ui/empty-state.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { errorMessage, get } from '../../lib/api.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { PromotionFormDialog } from './promotion-form-dialog.tsx';
import { usePromotionMutations, usePromotions } from './promotions-api.ts';

const L = t.promotions;
type Editing = Promotion | 'new' | null;

function kindText(p: Promotion): string {
  if (p.kind === 'fixed' && p.fixedPrice !== null) return `${L.kinds.fixed} ${money(p.fixedPrice)}`;
  return promotionKindLabel(p);
}

/** Promociones (decision 0028): the admin's happy-hour rules. */
export function PromotionsPage() {
  const promotions = usePromotions();
  const products = useQuery({
    queryKey: ['products', 'all'],
    queryFn: async () => (await get(ProductsResponseSchema, '/api/products')).products,
  });
  const { create, update, remove } = usePromotionMutations();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Promotion | null>(null);

  const save = (body: PromotionBody) => {
    const done = (message: string) => () => {
      toast.success(message);
      setEditing(null);
    };
    const failed = (err: unknown) => toast.error(errorMessage(err, L.saveError));
    if (editing === 'new') create.mutate(body, { onSuccess: done(L.created), onError: failed });
    else if (editing) update.mutate({ id: editing.id, body }, { onSuccess: done(L.updated), onError: failed });
  };

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        toast.success(L.deleted);
        setDeleting(null);
      },
      onError: (err) => toast.error(errorMessage(err, L.deleteError)),
    });
  };

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">{L.title}</h1>
        <Button variant="accent" onClick={() => setEditing('new')}>
          <Plus className="h-4 w-4" aria-hidden />
          {L.add}
        </Button>
      </div>
      <p className="max-w-3xl text-sm text-slate-600">{L.hint}</p>
      {promotions.isPending ? (
        <Spinner />
      ) : promotions.isError ? (
        <ErrorState message={L.loadError} onRetry={() => void promotions.refetch()} />
      ) : promotions.data.length === 0 ? (
        <EmptyState icon={<Tag className="h-8 w-8" aria-hidden />} title={L.empty} />
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3" aria-label={L.title}>
          {promotions.data.map((p) => (
            <li key={p.id}>
              <Card className="space-y-2 p-4" data-testid="promotion-card">
                <div className="flex items-start justify-between gap-2">
                  <h2 className="font-semibold break-words">{p.name}</h2>
                  <Badge tone={p.active ? 'success' : 'neutral'}>{p.active ? L.active : L.inactive}</Badge>
                </div>
                <p className="text-sm">
                  <Badge tone="violet">{L.badge}</Badge> {kindText(p)}
                </p>
                <p className="text-sm text-slate-700">
                  {p.days.map((d) => L.weekdaysShort[d]).join(', ')} · {L.window(formatMinute(p.startMinute), formatMinute(p.endMinute))}
                </p>
                <p className="text-sm text-slate-600">{L.targets(p.productIds.length, p.categories)}</p>
                <div className="flex gap-2">
                  <Button variant="outline" size="sm" onClick={() => setEditing(p)} aria-label={`${L.edit}: ${p.name}`}>
                    {L.edit}
                  </Button>
                  <Button variant="outline" size="sm" onClick={() => setDeleting(p)} aria-label={`${L.remove}: ${p.name}`}>
                    {L.remove}
                  </Button>
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}
      {editing && (
        <PromotionFormDialog
          key={editing === 'new' ? 'new' : editing.id}
          promotion={editing === 'new' ? null : editing}
          products={products.data ?? []}
          busy={create.isPending || update.isPending}
          onClose={() => setEditing(null)}
          onSubmit={save}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={L.deleteTitle}
        message={L.confirmDelete}
        confirmLabel={L.remove}
        danger
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}
