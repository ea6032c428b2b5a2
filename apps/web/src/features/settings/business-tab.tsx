import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { GeneralConfig, GeneralConfigBody } from '@comanda/contract';
import { GeneralConfigBodySchema, LOGO_DATA_URL_MAX, GeneralConfigSchema } from '@comanda/contract';
import { Input, Label } from '../../components/ui/input.tsx';
import { Field, TextField } from '../../components/ui/field.tsx';
import { Select } from '../../components/ui/select.tsx';
import { BrandMark } from '../../components/brand-mark.tsx';
import { CONFIG_KEYS, useGeneralConfig } from '../../lib/config.ts';
import { put } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useZodForm } from '../../lib/use-zod-form.ts';
import { SettingsFormCard, SettingsLoader } from './settings-form.tsx';

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
const hour = (h: number) => `${String(h).padStart(2, '0')}:00`;

export function BusinessTab() {
  const config = useGeneralConfig();
  return <SettingsLoader query={config}>{(data) => <BusinessForm initial={data} />}</SettingsLoader>;
}

function BusinessForm({ initial }: { initial: GeneralConfig }) {
  const qc = useQueryClient();
  const save = useMutation({
    mutationFn: (body: GeneralConfigBody) => put(GeneralConfigSchema, '/api/config/general', body),
    onSuccess: (saved) => {
      qc.setQueryData(CONFIG_KEYS.general, saved);
      void qc.invalidateQueries({ queryKey: CONFIG_KEYS.public });
      fields.reset(saved);
      toast.success(t.settings.saved);
    },
    onError: () => toast.error(t.settings.saveError),
  });

  const fields = useZodForm({
    initial,
    schema: GeneralConfigBodySchema,
    toInput: (f: GeneralConfig) => ({
      name: f.name.trim(),
      phone: f.phone.trim(),
      address: f.address.trim(),
      logoUrl: f.logoUrl.trim(),
      timezone: f.timezone,
      shiftStartHour: f.shiftStartHour,
      shiftEndHour: f.shiftEndHour,
    }),
    onValid: (body: GeneralConfigBody) => save.mutate(body),
  });
  const { values: form, set } = fields;
  const zones = ZONES.includes(form.timezone) ? ZONES : [form.timezone, ...ZONES];

  return (
    <SettingsFormCard onSubmit={fields.onSubmit} error={fields.error} saving={save.isPending}>
      <div className="flex items-center gap-4">
        <BrandMark logoUrl={form.logoUrl || undefined} size="lg" />
        <div className="min-w-0 flex-1">
          <Label htmlFor="cfg-name">{t.settings.name}</Label>
          <Input id="cfg-name" maxLength={120} value={form.name} onChange={(e) => set('name', e.target.value)} />
        </div>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField id="cfg-phone" label={t.settings.phone} type="tel" maxLength={40} value={form.phone} onValue={(v) => set('phone', v)} />
        <TextField
          id="cfg-logo"
          label={t.settings.logoUrl}
          type="url"
          placeholder="https://…"
          maxLength={LOGO_DATA_URL_MAX}
          value={form.logoUrl}
          onValue={(v) => set('logoUrl', v)}
        />
      </div>
      <TextField id="cfg-address" label={t.settings.address} maxLength={300} value={form.address} onValue={(v) => set('address', v)} />
      <div className="grid gap-4 sm:grid-cols-3">
        <Field id="cfg-tz" label={t.settings.timezone}>
          <Select id="cfg-tz" value={form.timezone} onChange={(e) => set('timezone', e.target.value)}>
            {zones.map((z) => (
              <option key={z} value={z}>
                {z.replace('America/', '').replace(/_/g, ' ')}
              </option>
            ))}
          </Select>
        </Field>
        <HourSelect id="cfg-start" label={t.settings.shiftStart} value={form.shiftStartHour} onChange={(h) => set('shiftStartHour', h)} />
        <HourSelect id="cfg-end" label={t.settings.shiftEnd} value={form.shiftEndHour} onChange={(h) => set('shiftEndHour', h)} />
      </div>
      <p className="text-xs text-slate-500">{t.settings.shiftHint}</p>
    </SettingsFormCard>
  );
}

function HourSelect({ id, label, value, onChange }: { id: string; label: string; value: number; onChange: (hour: number) => void }) {
  return (
    <Field id={id} label={label}>
      <Select id={id} value={value} onChange={(e) => onChange(Number(e.target.value))}>
        {HOURS.map((h) => (
          <option key={h} value={h}>
            {hour(h)}
          </option>
        ))}
      </Select>
    </Field>
  );
}
