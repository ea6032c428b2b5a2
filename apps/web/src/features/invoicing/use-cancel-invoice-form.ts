import { useEffect } from 'react';
import { toast } from 'sonner';
import { CancelInvoiceBodySchema, type CancelInvoiceBody, type InvoiceView } from '@comanda/contract';
import { cancellationProblem } from '@comanda/domain';
import { errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useCancelInvoice } from '../../lib/invoicing.ts';
import { useZodForm } from '../../lib/use-zod-form.ts';

interface CancelFields {
  motive: CancelInvoiceBody['motive'];
  substitution: string;
  pin: string;
}

const FRESH: CancelFields = { motive: '02', substitution: '', pin: '' };

/**
 * Cancelar factura's fields (SAT's motive, the substituting UUID for motive 01, an admin's PIN),
 * checked by the cancel request's schema and the domain's rule for the UUID before they are sent.
 */
export function useCancelInvoiceForm(invoice: InvoiceView | null, onClose: () => void) {
  const cancel = useCancelInvoice();
  const form = useZodForm({
    initial: FRESH,
    schema: CancelInvoiceBodySchema,
    toInput: ({ motive, substitution, pin }: CancelFields) => ({ motive, pin, ...(motive === '01' ? { substitution } : {}) }),
    check: ({ motive, substitution }) => cancellationProblem(motive, substitution),
    onValid: (body) => {
      if (!invoice) return;
      cancel.mutate(
        { id: invoice.id, body },
        {
          onSuccess: ({ invoice: done }) => {
            toast.success(done.state === 'cancelada' ? t.invoicing.cancelled : t.invoicing.cancelPending);
            onClose();
          },
          onError: (err) => form.setError(errorMessage(err, t.invoicing.loadError)),
        },
      );
    },
  });
  const { reset } = form;
  useEffect(() => {
    if (invoice) reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- each invoice opens a fresh form; reset is new each render
  }, [invoice]);
  return { form, busy: cancel.isPending };
}
