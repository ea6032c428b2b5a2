import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { DrawerSettingsBodySchema, DrawerStateResponseSchema } from '@comanda/contract';
import { Card } from '../../components/ui/card.tsx';
import { get, put } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useLiveQueries } from '../../lib/use-live.ts';
import { Toggle } from './terminal-tab-parts.tsx';

const KEY = ['drawer'] as const;

/** Configuración › Negocio: the drawer-control switch. Off by default: cash works as SPEC.md says. */
export function DrawerControlCard() {
  const qc = useQueryClient();
  useLiveQueries(['drawer'], [KEY]);
  const state = useQuery({ queryKey: KEY, queryFn: () => get(DrawerStateResponseSchema, '/api/drawer') });
  const save = useMutation({
    mutationFn: (enabled: boolean) => put(DrawerSettingsBodySchema, '/api/drawer/settings', { enabled }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: KEY });
      toast.success(t.drawer.controlSaved);
    },
    onError: () => toast.error(t.drawer.controlError),
  });
  return (
    <Card className="flex flex-col gap-3 p-5 sm:flex-row sm:items-center sm:justify-between" data-testid="drawer-control">
      <div>
        <h2 className="text-lg font-semibold text-slate-900">{t.drawer.controlTitle}</h2>
        <p className="text-sm text-slate-500">{t.drawer.controlHint}</p>
      </div>
      <Toggle
        checked={state.data?.enabled ?? false}
        label={t.drawer.controlTitle}
        disabled={!state.data || save.isPending}
        onChange={(v) => save.mutate(v)}
      />
    </Card>
  );
}
