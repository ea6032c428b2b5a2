import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Plus, X } from 'lucide-react';
import { normalizeVoidReasons, VOID_REASON_MAX, VOID_REASONS_MAX } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useSaveVoidReasons, useVoidReasons } from '../../lib/void-reasons.ts';

const L = t.voids;

/** Configuración › Motivos: the reasons a void or a cancelled order may give. */
export default function VoidReasonsTab() {
  const stored = useVoidReasons();
  const save = useSaveVoidReasons();
  const [reasons, setReasons] = useState<string[]>([]);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (stored.data && !stored.isPlaceholderData) setReasons(stored.data);
  }, [stored.data, stored.isPlaceholderData]);

  const add = () => {
    if (!draft.trim()) return;
    setReasons([...reasons, draft.trim()]);
    setDraft('');
  };
  const submit = () => {
    const cleaned = normalizeVoidReasons(reasons);
    if ('error' in cleaned) return setError(cleaned.error);
    setError(null);
    save.mutate(cleaned.reasons, {
      onSuccess: () => toast.success(L.reasonsSaved),
      onError: (e) => setError(errorMessage(e, L.error)),
    });
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
              onClick={() => setReasons(reasons.filter((_, j) => j !== i))}
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
          <Input id="void-reason-new" value={draft} maxLength={VOID_REASON_MAX} onChange={(e) => setDraft(e.target.value)} />
        </div>
        <Button type="submit" variant="outline" disabled={!draft.trim() || reasons.length >= VOID_REASONS_MAX}>
          <Plus className="h-4 w-4" aria-hidden />
          {L.addReason}
        </Button>
      </form>
      <FormError message={error} />
      <Button onClick={submit} disabled={save.isPending}>
        {L.saveReasons}
      </Button>
    </Card>
  );
}
