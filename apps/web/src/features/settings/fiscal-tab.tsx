import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { FiscalSettingsBody, FiscalSettingsResponse } from '@comanda/contract';
import { FiscalSettingsBodySchema, FiscalSettingsSchema } from '@comanda/contract';
import { fiscalProblems, GLOBAL_PERIOD_LABELS, GLOBAL_PERIODS } from '@comanda/domain';
import { Field, TextField } from '../../components/ui/field.tsx';
import { CatalogOptions, Select } from '../../components/ui/select.tsx';
import { get, put } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useZodForm } from '../../lib/use-zod-form.ts';
import { regimenesFor } from '../../components/ticket/regimenes.ts';
import { SettingsFormCard, SettingsLoader } from './settings-form.tsx';

const KEY = ['config', 'fiscal'] as const;

/** Configuración › Datos fiscales: the server checks the RFC and answers what is wrong, in Spanish. */
export default function FiscalTab() {
  const config = useQuery({ queryKey: KEY, queryFn: () => get(FiscalSettingsSchema, '/api/config/fiscal') });
  return <SettingsLoader query={config}>{(data) => <FiscalForm initial={data} />}</SettingsLoader>;
}

function FiscalForm({ initial }: { initial: FiscalSettingsResponse }) {
  const qc = useQueryClient();
  const [serverError, setServerError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (body: FiscalSettingsBody) => put(FiscalSettingsSchema, '/api/config/fiscal', body),
    onSuccess: (saved) => {
      qc.setQueryData(KEY, saved);
      fields.reset(saved);
      setServerError(null);
      toast.success(t.settings.saved);
    },
    onError: (error) => setServerError(error.message),
  });
  const fields = useZodForm({
    initial,
    schema: FiscalSettingsBodySchema,
    toInput: (f: FiscalSettingsResponse) => ({ ...f }),
    // The domain's rules, mirrored; the RFC's check digit is the server's to tell.
    check: (f: FiscalSettingsResponse) => Object.values(fiscalProblems(f))[0] ?? null,
    onValid: (body: FiscalSettingsBody) => save.mutate(body),
  });
  const { values: form, set } = fields;

  return (
    <SettingsFormCard onSubmit={fields.onSubmit} error={fields.error ?? serverError} saving={save.isPending}>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id="fiscal-rfc"
          label={t.fiscal.rfc}
          maxLength={13}
          autoCapitalize="characters"
          value={form.rfc}
          onValue={(v) => set('rfc', v.toUpperCase())}
        >
          <p className="mt-1 text-xs text-slate-500">{t.fiscal.rfcHint}</p>
        </TextField>
        <TextField
          id="fiscal-cp"
          label={t.fiscal.lugarExpedicion}
          inputMode="numeric"
          maxLength={5}
          value={form.lugarExpedicion}
          onValue={(v) => set('lugarExpedicion', v)}
        />
      </div>
      <TextField
        id="fiscal-razon"
        label={t.fiscal.razonSocial}
        maxLength={254}
        value={form.razonSocial}
        onValue={(v) => set('razonSocial', v)}
      />
      <Field id="fiscal-regimen" label={t.fiscal.regimen}>
        <Select id="fiscal-regimen" value={form.regimenFiscal} onChange={(e) => set('regimenFiscal', e.target.value)}>
          <CatalogOptions pick={t.fiscal.regimenPick} entries={regimenesFor(form.rfc)} />
        </Select>
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="fiscal-iva" label={t.fiscal.defaultIva}>
          <Select
            id="fiscal-iva"
            value={form.defaultIvaRate}
            onChange={(e) => set('defaultIvaRate', Number(e.target.value) === 8 ? 8 : 16)}
          >
            <option value={16}>{t.fiscal.iva16}</option>
            <option value={8}>{t.fiscal.iva8}</option>
          </Select>
        </Field>
        <TextField
          id="fiscal-series"
          label={t.fiscal.series}
          maxLength={10}
          value={form.ticketSeries}
          onValue={(v) => set('ticketSeries', v.toUpperCase())}
        />
      </div>
      <Field id="fiscal-global" label={t.fiscal.facturaGlobal}>
        <Select
          id="fiscal-global"
          value={form.facturaGlobal}
          onChange={(e) => set('facturaGlobal', e.target.value as FiscalSettingsResponse['facturaGlobal'])}
        >
          {GLOBAL_PERIODS.map((p) => (
            <option key={p} value={p}>
              {GLOBAL_PERIOD_LABELS[p]}
            </option>
          ))}
        </Select>
        <p className="mt-1 text-xs text-slate-500">{t.fiscal.facturaGlobalHint}</p>
      </Field>
    </SettingsFormCard>
  );
}
