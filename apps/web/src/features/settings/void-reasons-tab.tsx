import { useEffect } from 'react';
import { toast } from 'sonner';
import { Plus, X } from 'lucide-react';
import { normalizeVoidReasons, VOID_REASON_MAX, VOID_REASONS_MAX } from '@comanda/domain';
import { VoidReasonsBodySchema } from '@comanda/contract';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useSaveVoidReasons, useVoidReasons } from '../../lib/void-reasons.ts';
import { useZodForm } from '../../lib/use-zod-form.ts';

const L = t.voids;

/** Configuración › Motivos: the reasons a void or a cancelled order may give. */
export default function VoidReasonsTab() {
  const stored = useVoidReasons();
  const save = useSaveVoidReasons();
  const form = useZodForm({
    initial: { reasons: [] as string[], draft: '' },
    schema: VoidReasonsBodySchema,
    // Trimmed, blanks out, none twice (the domain's rule): said before the contract checks the lengths.
    before: ({ reasons }) => {
      const cleaned = normalizeVoidReasons(reasons);
      return 'error' in cleaned ? cleaned.error : null;
    },
    toInput: ({ reasons }) => {
      const cleaned = normalizeVoidReasons(reasons);
      return { reasons: 'error' in cleaned ? [] : cleaned.reasons };
    },
    onValid: ({ reasons }) =>
      save.mutate(reasons, {
        onSuccess: () => toast.success(L.reasonsSaved),
        onError: (e) => form.setError(errorMessage(e, L.error)),
      }),
  });
  const { values, set, update } = form;
  const { reasons, draft } = values;
  useEffect(() => {
    if (stored.data && !stored.isPlaceholderData) set('reasons', stored.data);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- set is new each render; the stored list alone refills the form
  }, [stored.data, stored.isPlaceholderData]);

  const add = () => {
    if (!draft.trim()) return;
    update((v) => ({ reasons: [...v.reasons, v.draft.trim()], draft: '' }));
  };
  return (
    <Card className="max-w-xl space-y-4 p-5" data-testid="void-reasons-tab">
      <div>
        <h2 className="text-lg font-semibold">{L.reasonsTitle}</h2>
        <p className="text-sm text-slate-500">{L.reasonsHint}</p>
      </div>
      <ul className="divide-y divide-slate-100">
        {reasons.map((reason, i) => (
          <li key={`${reason}-${i}`} className="flex items-center justify-between gap-2 py-1.5">
            <span className="min-w-0 break-words">{reason}</span>
            <Button
              variant="ghost"
              size="icon"
              aria-label={L.removeReason(reason)}
              onClick={() =>
                set(
                  'reasons',
                  reasons.filter((_, j) => j !== i),
                )
              }
            >
              <X className="h-4 w-4" aria-hidden />
            </Button>
          </li>
        ))}
      </ul>
      <form
        className="flex items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          add();
        }}
      >
        <div className="flex-1">
          <Label htmlFor="void-reason-new">{L.reasonPlaceholder}</Label>
          <Input id="void-reason-new" value={draft} maxLength={VOID_REASON_MAX} onChange={(e) => set('draft', e.target.value)} />
        </div>
        <Button type="submit" variant="outline" disabled={!draft.trim() || reasons.length >= VOID_REASONS_MAX}>
          <Plus className="h-4 w-4" aria-hidden />
          {L.addReason}
        </Button>
      </form>
      <FormError message={form.error} />
      <Button onClick={form.submit} disabled={save.isPending}>
        {L.saveReasons}
      </Button>
    </Card>
  );
}
