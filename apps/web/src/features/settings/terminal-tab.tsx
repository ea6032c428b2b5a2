import { toast } from 'sonner';
import { CreditCard, RefreshCw, Wifi, WifiOff } from 'lucide-react';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { EmptyState, ErrorState } from '../../components/ui/empty-state.tsx';
import { errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useTerminalMutations, useTerminals, useTerminalStatus } from './terminal-tab-api.ts';
import { Row, TerminalRow } from './terminal-tab-parts.tsx';
import { OwnerSetupCard, TechnicianDetails } from './terminal-tab-technician.tsx';
import { TestChargeCard } from './terminal-tab-test-charge.tsx';
import { CardReviewsCard } from './card-reviews-card.tsx';

/** Settings > Configurar Terminal: connection, terminals with enable switches, test charge, setup. */
export function TerminalTab() {
  const terminals = useTerminals();
  const { setEnabled, setPdv } = useTerminalMutations();

  const refresh = async () => {
    const res = await terminals.refetch();
    if (res.isError) toast.error(t.settings.terminalsRefreshError);
    else toast.success(t.settings.terminalsFound(res.data?.length ?? 0));
  };

  const toggle = (id: string, enabled: boolean) =>
    setEnabled.mutate(
      { id, enabled },
      {
        onSuccess: () => toast.success(enabled ? t.settings.terminalEnabled : t.settings.terminalDisabled),
        onError: (error) => toast.error(errorMessage(error, t.settings.terminalToggleError)),
      },
    );

  const pdv = (id: string) =>
    setPdv.mutate(id, {
      onSuccess: () => toast.success(t.terminalTab.pdvModeDone),
      onError: (error) => toast.error(errorMessage(error, t.settings.terminalToggleError)),
    });

  return (
    <div className="space-y-4">
      <StatusCard />
      <CardReviewsCard />
      <Card className="overflow-hidden">
        <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-4 py-3">
          <h2 className="font-semibold">{t.terminalTab.listTitle}</h2>
          <Button variant="outline" size="sm" onClick={() => void refresh()} disabled={terminals.isFetching}>
            <RefreshCw className={terminals.isFetching ? 'h-4 w-4 animate-spin' : 'h-4 w-4'} aria-hidden />
            {t.terminalTab.refresh}
          </Button>
        </div>
        {terminals.isPending ? (
          <Spinner />
        ) : terminals.isError ? (
          <div className="p-4">
            <ErrorState message={t.settings.terminalsLoadError} onRetry={() => void refresh()} />
          </div>
        ) : terminals.data.length === 0 ? (
          <div className="p-4">
            <EmptyState icon={<CreditCard className="h-8 w-8" aria-hidden />} title={t.settings.noTerminals} />
          </div>
        ) : (
          <ul className="divide-y divide-slate-100">
            {terminals.data.map((terminal) => (
              <TerminalRow
                key={terminal.id}
                terminal={terminal}
                busy={setEnabled.isPending || setPdv.isPending}
                onToggle={(v) => toggle(terminal.id, v)}
                onPdv={() => pdv(terminal.id)}
              />
            ))}
          </ul>
        )}
      </Card>
      {terminals.data && <TestChargeCard terminals={terminals.data} />}
      <OwnerSetupCard />
      <TechnicianDetails />
    </div>
  );
}

function StatusCard() {
  const status = useTerminalStatus();
  if (status.isPending) return <Spinner />;
  if (status.isError) return <ErrorState message={t.settings.terminalsLoadError} onRetry={() => void status.refetch()} />;
  const s = status.data;
  return (
    <Card className="space-y-3 p-4" data-testid="terminal-status">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="font-semibold">{t.terminalTab.statusTitle}</h2>
        <Badge tone={s.connected ? 'success' : 'danger'} className="gap-1">
          {s.connected ? <Wifi className="h-3.5 w-3.5" aria-hidden /> : <WifiOff className="h-3.5 w-3.5" aria-hidden />}
          {s.connected ? t.terminalTab.connected : t.terminalTab.disconnected}
        </Badge>
      </div>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        <Row term={t.terminalTab.mode} value={s.mode === 'demo' ? t.terminalTab.demo : t.terminalTab.live} />
        {s.terminalCount !== null && <Row term={t.terminalTab.listTitle} value={t.terminalTab.terminalCount(s.terminalCount)} />}
      </dl>
      {s.message && <p className="text-sm text-rose-700">{s.message}</p>}
      {s.mode === 'demo' && <p className="rounded-lg bg-sky-50 p-3 text-sm text-sky-900">{t.floorAndPrint.terminal.demoOwner}</p>}
    </Card>
  );
}
