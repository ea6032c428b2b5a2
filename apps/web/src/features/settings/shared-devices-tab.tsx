import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Tablet } from 'lucide-react';
import { toast } from 'sonner';
import {
  EnrollSharedDeviceBodySchema,
  IDLE_LOCK_CHOICES,
  type EnrollSharedDeviceBody,
  type SharedDevice,
  SharedDeviceListResponseSchema,
  SharedDeviceResponseSchema,
} from '@comanda/contract';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { cn } from '../../components/ui/cn.ts';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { ErrorState } from '../../components/ui/empty-state.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { errorMessage, get, post } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { SHARED_DEVICE_KEY } from '../../lib/shared-device.ts';
import { useBusinessDates } from '../../lib/dates.ts';
import { useZodForm } from '../../lib/use-zod-form.ts';

const LIST_KEY = ['shared-devices'] as const;
const s = t.sharedDevices;

/** "Dispositivos compartidos": enroll this browser for PIN sign-in; list and revoke the enrolled ones. */
export default function SharedDevicesTab() {
  const dates = useBusinessDates();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: LIST_KEY, queryFn: () => get(SharedDeviceListResponseSchema, '/api/shared-devices') });
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: LIST_KEY });
    void qc.invalidateQueries({ queryKey: SHARED_DEVICE_KEY });
  };
  const [revoking, setRevoking] = useState<SharedDevice | null>(null);
  const revoke = useMutation({
    mutationFn: (id: string) => post(SharedDeviceResponseSchema, `/api/shared-devices/${id}/revoke`),
    onSuccess: () => {
      toast.success(s.revokedToast);
      setRevoking(null);
    },
    onError: (err) => toast.error(errorMessage(err, t.app.unexpected)),
    onSettled: refresh,
  });

  if (list.isPending) return <Spinner />;
  if (list.isError) return <ErrorState message={s.loadError} onRetry={() => void list.refetch()} />;
  const devices = list.data.devices;
  const current = devices.find((d) => d.current && d.revokedAt === null);
  return (
    <div className="space-y-4">
      <p className="max-w-3xl text-sm text-slate-600">{s.intro}</p>
      {current ? (
        <Card className="flex items-center gap-3 p-4 text-sm text-slate-800">
          <Tablet className="h-5 w-5 text-slate-600" aria-hidden />
          {s.thisEnrolled(current.name)}
        </Card>
      ) : (
        <EnrollCard onEnrolled={refresh} />
      )}
      <Card className="p-5">
        <h2 className="mb-3 text-lg font-semibold">{s.listTitle}</h2>
        {devices.length === 0 ? (
          <p className="text-sm text-slate-600">{s.empty}</p>
        ) : (
          <ul className="divide-y divide-slate-200" aria-label={s.listTitle}>
            {devices.map((device) => (
              <li key={device.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2 font-semibold">
                    {device.name}
                    {device.current && device.revokedAt === null && <Badge tone="info">{s.current}</Badge>}
                    {device.revokedAt === null ? <Badge tone="success">{s.active}</Badge> : <Badge tone="danger">{s.revoked}</Badge>}
                  </p>
                  <p className="text-sm text-slate-600">
                    {s.createdBy(device.createdBy, dates.dayTime(device.createdAt))} · {s.idleSummary(device.idleLockSeconds)}
                  </p>
                  {device.lastSeenAt !== null && <p className="text-xs text-slate-600">{s.lastSeen(dates.dayTime(device.lastSeenAt))}</p>}
                </div>
                {device.revokedAt === null && (
                  <Button variant="outline" className="text-rose-700" onClick={() => setRevoking(device)}>
                    {s.revoke}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </Card>
      <ConfirmDialog
        open={revoking !== null}
        title={s.revokeTitle}
        message={revoking ? s.revokeMessage(revoking.name) : ''}
        confirmLabel={s.revoke}
        danger
        busy={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking.id)}
        onClose={() => setRevoking(null)}
      />
    </div>
  );
}

function EnrollCard({ onEnrolled }: { onEnrolled: () => void }) {
  const enroll = useMutation({
    mutationFn: (body: EnrollSharedDeviceBody) => post(SharedDeviceResponseSchema, '/api/shared-devices', body),
    onSuccess: () => {
      toast.success(s.enrolled);
      form.set('name', '');
    },
    onError: (err) => form.setError(errorMessage(err, t.app.unexpected)),
    onSettled: onEnrolled,
  });
  const form = useZodForm({
    initial: { name: '', idleLockSeconds: 300 as number },
    schema: EnrollSharedDeviceBodySchema,
    // The name is sent as typed (the server trims it).
    toInput: (v) => v,
    onValid: (_body, v) => enroll.mutate(v),
  });
  const { name, idleLockSeconds: idle } = form.values;
  return (
    <Card className="p-5">
      <h2 className="mb-3 text-lg font-semibold">{s.enrollTitle}</h2>
      <form onSubmit={form.onSubmit} className="max-w-xl space-y-4">
        <div>
          <Label htmlFor="shared-device-name">{s.name}</Label>
          <Input
            id="shared-device-name"
            required
            maxLength={60}
            placeholder={s.namePlaceholder}
            value={name}
            onChange={(e) => form.set('name', e.target.value)}
          />
        </div>
        <fieldset>
          <legend className="mb-1 text-sm font-medium text-slate-700">{s.idleLock}</legend>
          <div className="flex flex-wrap gap-2">
            {IDLE_LOCK_CHOICES.map((seconds) => (
              <label
                key={seconds}
                className={cn(
                  'flex h-11 cursor-pointer items-center rounded-lg border px-4 text-sm font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-500',
                  idle === seconds
                    ? 'border-slate-900 bg-slate-900 text-white'
                    : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-100',
                )}
              >
                <input
                  type="radio"
                  name="idle-lock"
                  className="sr-only"
                  value={seconds}
                  checked={idle === seconds}
                  onChange={() => form.set('idleLockSeconds', seconds)}
                />
                {seconds === 0 ? s.idleOff : s.idleMinutes(seconds / 60)}
              </label>
            ))}
          </div>
        </fieldset>
        <FormError message={form.error} />
        <Button type="submit" variant="accent" size="lg" disabled={enroll.isPending || name.trim() === ''}>
          {enroll.isPending ? s.enrolling : s.enroll}
        </Button>
      </form>
    </Card>
  );
}
