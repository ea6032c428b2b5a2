import { useRef, useState } from 'react';
import { FileText } from 'lucide-react';
import { InvoiceTicketBodySchema, type InvoiceTicketBody, type InvoiceView } from '@comanda/contract';
import {
  FORMAS_PAGO,
  hasRegimenSocietario,
  INVOICE_STATE_LABELS,
  normalizeRfc,
  RECEIPT_STATE_LABELS,
  receptorProblems,
  usosFor,
} from '@comanda/domain';
import { Badge, type BadgeTone } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { Field } from '../ui/field.tsx';
import { FormError } from '../ui/form-error.tsx';
import { Input } from '../ui/input.tsx';
import { PinInput } from '../ui/pin-input.tsx';
import { CatalogOptions, Select } from '../ui/select.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { errorMessage } from '../../lib/api.ts';
import { newIdempotencyKey } from '../../lib/ids.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useSession } from '../../lib/session.ts';
import { invoiceFileUrl, useInvoiceTicket, useTicketInvoicing } from '../../lib/invoicing.ts';
import { useZodForm } from '../../lib/use-zod-form.ts';
import { regimenesFor } from './regimenes.ts';

export { SELECT } from '../ui/select.tsx';

export const INVOICE_TONES: Record<InvoiceView['state'], BadgeTone> = {
  solicitando: 'warning',
  timbrada: 'success',
  error: 'danger',
  cancelacion_pendiente: 'warning',
  cancelada: 'neutral',
  vacia: 'neutral',
};

/** A stamped invoice's files, fetched through the server (the PAC's key stays there). */
export function InvoiceFiles({ invoice }: { invoice: InvoiceView }) {
  if (!invoice.uuid) return null;
  return (
    <span className="inline-flex gap-2">
      {(['pdf', 'xml'] as const).map((f) => (
        <a
          key={f}
          href={invoiceFileUrl(invoice.id, f)}
          download={`${invoice.uuid}.${f}`}
          className="inline-flex h-11 items-center rounded-lg border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-100 lg:h-9"
        >
          {f === 'pdf' ? t.invoicing.pdf : t.invoicing.xml}
        </a>
      ))}
    </span>
  );
}

const EMPTY = { rfc: '', legalName: '', zip: '', taxSystem: '', use: '', email: '' };
/** The customer's fields as typed, and the PIN of a waiter at the cashier. */
type Draft = typeof EMPTY & { pin: string };

/** The ticket's CFDI at the cashier: its state, its invoices, and "Facturar" with the customer's data. */
export function TicketInvoiceSection({ orderId, folio }: { orderId: string; folio: string }) {
  const info = useTicketInvoicing(orderId);
  const [open, setOpen] = useState(false);
  if (info.isPending) return <Spinner />;
  if (info.isError) return <FormError message={errorMessage(info.error, t.invoicing.loadError)} />;
  const { receipt, invoices, blocked } = info.data;
  return (
    <section aria-label={t.invoicing.title} className="space-y-3 rounded-lg border border-slate-200 p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-2 text-sm">
          <FileText className="h-4 w-4 text-slate-500" aria-hidden />
          <span className="font-semibold text-slate-900">{t.invoicing.title}</span>
          {receipt && <Badge tone={receipt.state === 'facturado' ? 'success' : 'info'}>{RECEIPT_STATE_LABELS[receipt.state]}</Badge>}
        </div>
        {!blocked && !open && (
          <Button size="sm" variant="accent" onClick={() => setOpen(true)}>
            {t.invoicing.facturar}
          </Button>
        )}
      </div>
      {invoices.map((i) => (
        <div key={i.id} className="flex flex-wrap items-center gap-2 text-sm">
          <Badge tone={INVOICE_TONES[i.state]}>{INVOICE_STATE_LABELS[i.state]}</Badge>
          <span className="font-medium text-slate-900">{i.legalName}</span>
          <span className="font-mono text-xs text-slate-600">{i.uuid ?? i.lastError}</span>
          <InvoiceFiles invoice={i} />
        </div>
      ))}
      {blocked && !invoices.length && <p className="text-sm text-slate-600">{blocked}</p>}
      {open && <FacturarForm orderId={orderId} folio={folio} paymentForm={info.data.paymentForm} onDone={() => setOpen(false)} />}
    </section>
  );
}

function FacturarForm({
  orderId,
  folio,
  paymentForm,
  onDone,
}: {
  orderId: string;
  folio: string;
  paymentForm: string;
  onDone: () => void;
}) {
  const session = useSession();
  const needsPin = session.data?.role !== 'admin';
  const invoice = useInvoiceTicket(orderId);
  // One key per request as typed: sent again unchanged (a double tap, a retry) it stamps once.
  const key = useRef<{ key: string; body: string } | null>(null);
  const bodyOf = (v: Draft): InvoiceTicketBody => {
    const { pin, ...receptor } = v;
    return { ...receptor, rfc: normalizeRfc(receptor.rfc), ...(needsPin ? { pin } : {}) };
  };
  const fields = useZodForm({
    initial: { ...EMPTY, pin: '' },
    schema: InvoiceTicketBodySchema,
    // The receptor's rules (the domain's), in their words, before the contract's lengths.
    before: (v: Draft) => Object.values(receptorProblems(bodyOf(v)))[0] ?? null,
    toInput: bodyOf,
    onValid: (_parsed, v) => {
      const body = bodyOf(v);
      const text = JSON.stringify(body);
      if (key.current?.body !== text) key.current = { key: newIdempotencyKey('invoice'), body: text };
      invoice.mutate({ body, key: key.current.key }, { onError: (err) => fields.setError(errorMessage(err, t.invoicing.blocked)) });
    },
  });
  const { values: form } = fields;
  const set = (field: keyof Draft, value: string) => {
    fields.set(field, value);
    fields.setError(null);
  };
  const usos = form.taxSystem ? usosFor(form.taxSystem) : [];
  const forma = FORMAS_PAGO.find((f) => f.code === paymentForm);

  if (invoice.data) {
    const stamped = invoice.data.invoice;
    return (
      <div role="status" className="space-y-2 rounded-lg bg-emerald-50 p-3 text-sm text-emerald-900">
        <p className="font-semibold">{t.invoicing.stamped(stamped.uuid ?? '')}</p>
        {stamped.email && stamped.emailedAt !== null && <p>{t.invoicing.emailed(stamped.email)}</p>}
        {stamped.emailError && <p className="text-rose-700">{stamped.emailError}</p>}
        <div className="flex flex-wrap items-center gap-2">
          <Button size="sm" variant="outline" onClick={onDone}>
            {t.invoicing.close}
          </Button>
        </div>
      </div>
    );
  }

  return (
    <form onSubmit={fields.onSubmit} className="space-y-3" aria-label={t.invoicing.dialogTitle(folio)}>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id="inv-rfc" label={t.invoicing.rfc}>
          <Input
            id="inv-rfc"
            maxLength={13}
            autoCapitalize="characters"
            autoComplete="off"
            value={form.rfc}
            onChange={(e) => set('rfc', e.target.value.toUpperCase())}
          />
        </Field>
        <Field id="inv-zip" label={t.invoicing.zip}>
          <Input id="inv-zip" inputMode="numeric" maxLength={5} value={form.zip} onChange={(e) => set('zip', e.target.value)} />
        </Field>
      </div>
      <Field id="inv-name" label={t.invoicing.legalName}>
        <Input id="inv-name" maxLength={254} value={form.legalName} onChange={(e) => set('legalName', e.target.value.toUpperCase())} />
        {hasRegimenSocietario(form.legalName) && <p className="mt-1 text-xs font-medium text-amber-800">{t.invoicing.legalNameWarn}</p>}
      </Field>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id="inv-regimen" label={t.invoicing.taxSystem}>
          <Select
            id="inv-regimen"
            value={form.taxSystem}
            onChange={(e) => {
              const taxSystem = e.target.value;
              fields.update((f) => ({ ...f, taxSystem, use: usosFor(taxSystem).some((u) => u.code === f.use) ? f.use : '' }));
              fields.setError(null);
            }}
          >
            <CatalogOptions pick={t.invoicing.taxSystemPick} entries={regimenesFor(form.rfc)} />
          </Select>
        </Field>
        <Field id="inv-use" label={t.invoicing.use}>
          <Select id="inv-use" value={form.use} disabled={!form.taxSystem} onChange={(e) => set('use', e.target.value)}>
            <CatalogOptions pick={t.invoicing.usePick} entries={usos} />
          </Select>
        </Field>
      </div>
      <Field id="inv-email" label={t.invoicing.email}>
        <Input id="inv-email" type="email" autoComplete="off" value={form.email} onChange={(e) => set('email', e.target.value)} />
      </Field>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-lg bg-slate-50 p-3 text-sm">
        <dt className="text-slate-600">{t.invoicing.paymentForm}</dt>
        <dd className="font-medium text-slate-900">
          {paymentForm} · {forma?.name}
        </dd>
        <dt className="text-slate-600">{t.invoicing.paymentMethod}</dt>
        <dd className="font-medium text-slate-900">{t.invoicing.pue}</dd>
      </dl>
      {needsPin && (
        <Field id="inv-pin" label={t.invoicing.pin}>
          <PinInput id="inv-pin" maxLength={12} value={form.pin} onValue={(pin) => set('pin', pin)} />
        </Field>
      )}
      <FormError message={fields.error} />
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onDone}>
          {t.invoicing.close}
        </Button>
        <Button type="submit" variant="accent" disabled={invoice.isPending}>
          {invoice.isPending ? t.invoicing.submitting : t.invoicing.submit}
        </Button>
      </div>
    </form>
  );
}
