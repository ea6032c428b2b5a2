import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { GeneralConfig, GeneralConfigBody } from '@comanda/contract';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { ErrorState } from '../../components/ui/empty-state.tsx';
import { BrandMark } from '../../components/brand-mark.tsx';
import { CONFIG_KEYS, useGeneralConfig } from '../../lib/config.ts';
import { put } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';

// Mexico's zones first; any other stored zone is kept as an option too.
const ZONES = [
  'America/Mexico_City',
  'America/Monterrey',
  'America/Merida',
  'America/Cancun',
  'America/Matamoros',
  'America/Chihuahua',
  'America/Ciudad_Juarez',
  'America/Mazatlan',
  'America/Bahia_Banderas',
  'America/Hermosillo',
  'America/Tijuana',
];
const HOURS = Array.from({ length: 24 }, (_, h) => h);
const SELECT =
  'h-10 w-full rounded-lg border border-slate-300 bg-white px-3 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30';
const hour = (h: number) => `${String(h).padStart(2, '0')}:00`;

export function BusinessTab() {
  const config = useGeneralConfig();
  if (config.isPending) return <Spinner />;
  if (config.isError) return <ErrorState message={t.settings.loadError} onRetry={() => void config.refetch()} />;
  return <BusinessForm initial={config.data} />;
}

function BusinessForm({ initial }: { initial: GeneralConfig }) {
  const qc = useQueryClient();
  const [form, setForm] = useState<GeneralConfig>(initial);
  const set = <K extends keyof GeneralConfig>(key: K, value: GeneralConfig[K]) => setForm((f) => ({ ...f, [key]: value }));
  const save = useMutation({
    mutationFn: (body: GeneralConfigBody) => put<GeneralConfig>('/api/config/general', body),
    onSuccess: (saved) => {
      qc.setQueryData(CONFIG_KEYS.general, saved);
      void qc.invalidateQueries({ queryKey: CONFIG_KEYS.public });
      setForm(saved);
      toast.success(t.settings.saved);
    },
    onError: () => toast.error(t.settings.saveError),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({
      name: form.name.trim(),
      phone: form.phone.trim(),
      address: form.address.trim(),
      logoUrl: form.logoUrl.trim(),
      timezone: form.timezone,
      shiftStartHour: form.shiftStartHour,
      shiftEndHour: form.shiftEndHour,
    });
  };
  const zones = ZONES.includes(form.timezone) ? ZONES : [form.timezone, ...ZONES];

  return (
    <Card className="max-w-2xl p-5">
      <form onSubmit={submit} className="space-y-4">
        <div className="flex items-center gap-4">
          <BrandMark logoUrl={form.logoUrl || undefined} size="lg" />
          <div className="min-w-0 flex-1">
            <Label htmlFor="cfg-name">{t.settings.name}</Label>
            <Input id="cfg-name" maxLength={120} value={form.name} onChange={(e) => set('name', e.target.value)} />
          </div>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <Label htmlFor="cfg-phone">{t.settings.phone}</Label>
            <Input id="cfg-phone" type="tel" maxLength={40} value={form.phone} onChange={(e) => set('phone', e.target.value)} />
          </div>
          <div>
            <Label htmlFor="cfg-logo">{t.settings.logoUrl}</Label>
            <Input
              id="cfg-logo"
              type="url"
              placeholder="https://…"
              maxLength={2048}
              value={form.logoUrl}
              onChange={(e) => set('logoUrl', e.target.value)}
            />
          </div>
        </div>
        <div>
          <Label htmlFor="cfg-address">{t.settings.address}</Label>
          <Input id="cfg-address" maxLength={300} value={form.address} onChange={(e) => set('address', e.target.value)} />
        </div>
        <div className="grid gap-4 sm:grid-cols-3">
          <div>
            <Label htmlFor="cfg-tz">{t.settings.timezone}</Label>
            <select id="cfg-tz" className={SELECT} value={form.timezone} onChange={(e) => set('timezone', e.target.value)}>
              {zones.map((z) => (
                <option key={z} value={z}>
                  {z.replace('America/', '').replace(/_/g, ' ')}
                </option>
              ))}
            </select>
          </div>
          <HourSelect id="cfg-start" label={t.settings.shiftStart} value={form.shiftStartHour} onChange={(h) => set('shiftStartHour', h)} />
          <HourSelect id="cfg-end" label={t.settings.shiftEnd} value={form.shiftEndHour} onChange={(h) => set('shiftEndHour', h)} />
        </div>
        <p className="text-xs text-slate-500">{t.settings.shiftHint}</p>
        <div className="flex justify-end">
          <Button type="submit" variant="accent" disabled={save.isPending}>
            {save.isPending ? t.settings.saving : t.settings.saveChanges}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function HourSelect({ id, label, value, onChange }: { id: string; label: string; value: number; onChange: (hour: number) => void }) {
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <select id={id} className={SELECT} value={value} onChange={(e) => onChange(Number(e.target.value))}>
        {HOURS.map((h) => (
          <option key={h} value={h}>
            {hour(h)}
          </option>
        ))}
      </select>
    </div>
  );
}
