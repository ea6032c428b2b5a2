import { useQuery } from '@tanstack/react-query';
import { DatabaseBackup, TriangleAlert } from 'lucide-react';
import { BackupStatusSchema } from '@comanda/contract';
import { Card } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { ErrorState } from '../../components/ui/empty-state.tsx';
import { get } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useBusinessDates } from '../../lib/dates.ts';

const BACKUPS_KEY = ['backups', 'status'] as const;

function interval(ms: number): string {
  if (ms % 3_600_000 === 0) return ms === 3_600_000 ? 'hora' : `${ms / 3_600_000} horas`;
  return `${Math.round(ms / 60_000)} minutos`;
}

function size(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Configuración › Respaldos: when the last backup was made, how big, and a warning when it is late. */
export default function BackupsTab() {
  const dates = useBusinessDates();
  const status = useQuery({ queryKey: BACKUPS_KEY, queryFn: () => get(BackupStatusSchema, '/api/backups'), refetchInterval: 60_000 });
  if (status.isPending) return <Spinner />;
  if (status.isError) return <ErrorState message={t.backups.loadError} onRetry={() => void status.refetch()} />;
  const s = status.data;
  return (
    <Card className="max-w-2xl space-y-3 p-4" data-testid="backups-card">
      <div className="flex items-center gap-2">
        <DatabaseBackup className="h-5 w-5 text-slate-600" aria-hidden />
        <h2 className="font-semibold">{t.backups.title}</h2>
      </div>
      {s.kind === 'postgres' ? (
        <p className="text-sm text-slate-600">{t.backups.postgres}</p>
      ) : (
        <>
          <p className="text-sm text-slate-600">{s.enabled && s.everyMs ? t.backups.every(interval(s.everyMs)) : t.backups.off}</p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-500">{t.backups.last}</dt>
            <dd data-testid="backup-last">{s.last ? dates.dateTime(s.last.at) : t.backups.none}</dd>
            {s.last && (
              <>
                <dt className="text-slate-500">{t.backups.size}</dt>
                <dd>{size(s.last.bytes)}</dd>
              </>
            )}
            {s.dir && (
              <>
                <dt className="text-slate-500">{t.backups.folder}</dt>
                <dd className="break-all font-mono text-xs">{s.dir}</dd>
              </>
            )}
          </dl>
          {(s.stale || s.lastError) && (
            <p role="alert" className="flex gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
              <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
              <span>{s.lastError ? t.backups.failed(s.lastError) : t.backups.stale}</span>
            </p>
          )}
          <p className="text-xs text-slate-500">{t.backups.hint}</p>
        </>
      )}
    </Card>
  );
}
