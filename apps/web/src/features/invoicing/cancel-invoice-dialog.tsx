import type { CancelInvoiceBody, InvoiceView } from '@comanda/contract';
import { CANCELLATION_MOTIVES } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Field } from '../../components/ui/field.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { Input } from '../../components/ui/input.tsx';
import { PinInput } from '../../components/ui/pin-input.tsx';
import { SELECT } from '../../components/ticket/ticket-invoice-section.tsx';
import { t } from '../../lib/i18n/es-MX.ts';
import { useCancelInvoiceForm } from './use-cancel-invoice-form.ts';

/** Cancelar factura: SAT's motive (01 names the replacing invoice's UUID), authorised by an admin's PIN. */
export function CancelInvoiceDialog({ invoice, onClose }: { invoice: InvoiceView | null; onClose: () => void }) {
  const { form, busy } = useCancelInvoiceForm(invoice, onClose);
  const { motive, substitution, pin } = form.values;
  return (
    <Dialog
      open={invoice !== null}
      onClose={onClose}
      title={invoice ? t.invoicing.cancelTitle(invoice.legalName) : ''}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            {t.invoicing.close}
          </Button>
          <Button type="submit" form="cancel-invoice" variant="danger" disabled={busy}>
            {t.invoicing.confirmCancel}
          </Button>
        </>
      }
    >
      <form id="cancel-invoice" onSubmit={form.onSubmit} className="space-y-3">
        {invoice?.uuid && <p className="break-all font-mono text-xs text-slate-700">{invoice.uuid}</p>}
        <Field id="cancel-motive" label={t.invoicing.motive}>
          <select
            id="cancel-motive"
            className={SELECT}
            value={motive}
            onChange={(e) => form.set('motive', e.target.value as CancelInvoiceBody['motive'])}
          >
            {Object.entries(CANCELLATION_MOTIVES).map(([code, name]) => (
              <option key={code} value={code}>
                {code} · {name}
              </option>
            ))}
          </select>
        </Field>
        {motive === '01' && (
          <Field id="cancel-substitution" label={t.invoicing.substitution}>
            <Input
              id="cancel-substitution"
              autoComplete="off"
              maxLength={36}
              value={substitution}
              onChange={(e) => form.set('substitution', e.target.value.toUpperCase())}
            />
          </Field>
        )}
        <Field id="cancel-pin" label={t.invoicing.adminPin}>
          <PinInput id="cancel-pin" maxLength={12} value={pin} onValue={(v) => form.set('pin', v)} />
        </Field>
        <FormError message={form.error} />
      </form>
    </Dialog>
  );
}
