import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { FiscalSettingsBody, FiscalSettingsResponse } from '@comanda/contract';
import { FiscalSettingsBodySchema, FiscalSettingsSchema } from '@comanda/contract';
import { fiscalProblems, GLOBAL_PERIOD_LABELS, GLOBAL_PERIODS, REGIMENES_FISCALES, rfcPersonKind } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Field } from '../../components/ui/field.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { ErrorState } from '../../components/ui/empty-state.tsx';
import { get, put } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useZodForm } from '../../lib/use-zod-form.ts';

const SELECT =
  'h-10 w-full rounded-lg border border-slate-300 bg-white px-3 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30';
const KEY = ['config', 'fiscal'] as const;

/** Configuración › Datos fiscales: the server checks the RFC and answers what is wrong, in Spanish. */
export default function FiscalTab() {
  const config = useQuery({ queryKey: KEY, queryFn: () => get(FiscalSettingsSchema, '/api/config/fiscal') });
  if (config.isPending) return <Spinner />;
  if (config.isError) return <ErrorState message={t.settings.loadError} onRetry={() => void config.refetch()} />;
  return <FiscalForm initial={config.data} />;
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
  // Only the regímenes of the kind of person the RFC names (all while it is incomplete).
  const kind = rfcPersonKind(form.rfc);
  const regimenes = kind.ok ? REGIMENES_FISCALES.filter((r) => r.applies.includes(kind.kind)) : REGIMENES_FISCALES;

  return (
    <Card className="max-w-2xl p-5">
      <form onSubmit={fields.onSubmit} className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="fiscal-rfc" label={t.fiscal.rfc}>
            <Input
              id="fiscal-rfc"
              maxLength={13}
              autoCapitalize="characters"
              value={form.rfc}
              onChange={(e) => set('rfc', e.target.value.toUpperCase())}
            />
            <p className="mt-1 text-xs text-slate-500">{t.fiscal.rfcHint}</p>
          </Field>
          <Field id="fiscal-cp" label={t.fiscal.lugarExpedicion}>
            <Input
              id="fiscal-cp"
              inputMode="numeric"
              maxLength={5}
              value={form.lugarExpedicion}
              onChange={(e) => set('lugarExpedicion', e.target.value)}
            />
          </Field>
        </div>
        <Field id="fiscal-razon" label={t.fiscal.razonSocial}>
          <Input id="fiscal-razon" maxLength={254} value={form.razonSocial} onChange={(e) => set('razonSocial', e.target.value)} />
        </Field>
        <Field id="fiscal-regimen" label={t.fiscal.regimen}>
          <select id="fiscal-regimen" className={SELECT} value={form.regimenFiscal} onChange={(e) => set('regimenFiscal', e.target.value)}>
            <option value="">{t.fiscal.regimenPick}</option>
            {regimenes.map((r) => (
              <option key={r.code} value={r.code}>
                {r.code} · {r.name}
              </option>
            ))}
          </select>
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="fiscal-iva" label={t.fiscal.defaultIva}>
            <select
              id="fiscal-iva"
              className={SELECT}
              value={form.defaultIvaRate}
              onChange={(e) => set('defaultIvaRate', Number(e.target.value) === 8 ? 8 : 16)}
            >
              <option value={16}>{t.fiscal.iva16}</option>
              <option value={8}>{t.fiscal.iva8}</option>
            </select>
          </Field>
          <Field id="fiscal-series" label={t.fiscal.series}>
            <Input
              id="fiscal-series"
              maxLength={10}
              value={form.ticketSeries}
              onChange={(e) => set('ticketSeries', e.target.value.toUpperCase())}
            />
          </Field>
        </div>
        <Field id="fiscal-global" label={t.fiscal.facturaGlobal}>
          <select
            id="fiscal-global"
            className={SELECT}
            value={form.facturaGlobal}
            onChange={(e) => set('facturaGlobal', e.target.value as FiscalSettingsResponse['facturaGlobal'])}
          >
            {GLOBAL_PERIODS.map((p) => (
              <option key={p} value={p}>
                {GLOBAL_PERIOD_LABELS[p]}
              </option>
            ))}
          </select>
          <p className="mt-1 text-xs text-slate-500">{t.fiscal.facturaGlobalHint}</p>
        </Field>
        <FormError message={fields.error ?? serverError} />
        <div className="flex justify-end">
          <Button type="submit" variant="accent" disabled={save.isPending}>
            {save.isPending ? t.settings.saving : t.settings.saveChanges}
          </Button>
        </div>
      </form>
    </Card>
  );
}
