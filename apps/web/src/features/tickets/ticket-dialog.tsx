import { useState } from 'react';
import { Printer } from 'lucide-react';
import { toast } from 'sonner';
import { PAYMENT_METHOD_LABELS, selfInvoiceLine } from '@comanda/domain';
import { TicketPaymentsDetail } from '../../components/ticket/ticket-payments.tsx';
import { PrintableTicket } from '../../components/ticket/printable-ticket.tsx';
import { printTicket, TicketPrintCopy } from '../../components/ticket/print-ticket.tsx';
import { storedTicketFigures } from '../../components/ticket/ticket-figures.ts';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { ErrorState } from '../../components/ui/empty-state.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useGeneralConfig } from '../../lib/config.ts';
import { errorMessage } from '../../lib/api.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { printTicketOnCaja, useTicket } from './tickets-api.ts';
import { TicketInvoiceSection } from '../../components/ticket/ticket-invoice-section.tsx';

/** The full paid ticket with its payment, reprinted on the same 80 mm layout as the checkout. */
export function TicketDialog({ orderId, ticketNumber, onClose }: { orderId: string | null; ticketNumber: string; onClose: () => void }) {
  const ticket = useTicket(orderId);
  const config = useGeneralConfig();
  const order = ticket.data?.order;
  const payment = order?.payments[0];
  const selfInvoice = { line: selfInvoiceLine(ticket.data?.invoicing ?? null), qrSvg: ticket.data?.selfInvoiceQrSvg ?? null };
  // The ticket as shown, and the same again as the print copy.
  const paper = order && (
    <PrintableTicket order={order} business={config.data} figures={storedTicketFigures(order)} showPayment selfInvoice={selfInvoice} />
  );
  const [sending, setSending] = useState(false);
  // The caja printer when one is set (through the print queue, with the QR as ESC/POS), else the browser's dialog.
  const printOnCaja = async () => {
    if (!orderId) return;
    setSending(true);
    try {
      if ((await printTicketOnCaja(orderId)) > 0) toast.success(t.tickets.cajaSent);
      else printTicket();
    } catch (error) {
      toast.error(errorMessage(error, t.tickets.printError));
    } finally {
      setSending(false);
    }
  };
  return (
    <Dialog
      open={orderId !== null}
      onClose={onClose}
      title={t.tickets.ticketTitle(ticketNumber)}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            {t.tickets.close}
          </Button>
          <Button variant="outline" onClick={() => void printOnCaja()} disabled={!order || sending}>
            <Printer className="h-4 w-4" aria-hidden />
            {t.tickets.printCaja}
          </Button>
          <Button onClick={printTicket} disabled={!order} data-autofocus>
            <Printer className="h-4 w-4" aria-hidden />
            {t.tickets.print}
          </Button>
        </>
      }
    >
      {ticket.isPending && <Spinner />}
      {ticket.isError && <ErrorState message={errorMessage(ticket.error, t.order.loadError)} onRetry={() => void ticket.refetch()} />}
      {order && (
        <div className="space-y-4">
          {payment && (
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-lg bg-slate-50 p-3 text-sm" aria-label={t.tickets.payment}>
              <dt className="text-slate-500">{t.tickets.paymentId}</dt>
              <dd className="break-all font-mono text-xs leading-5 text-slate-900">{payment.id}</dd>
              <dt className="text-slate-500">{t.tickets.method}</dt>
              <dd className="font-medium text-slate-900">{PAYMENT_METHOD_LABELS[payment.method]}</dd>
              <dt className="text-slate-500">{t.tickets.amount}</dt>
              <dd className="font-semibold tabular-nums text-slate-900">{money(payment.amount)}</dd>
            </dl>
          )}
          <TicketPaymentsDetail order={order} />
          {order.status === 'pagado' && <TicketInvoiceSection orderId={order.id} folio={ticketNumber} />}
          <div className="rounded-lg bg-slate-100 p-3">{paper}</div>
          <TicketPrintCopy>{paper}</TicketPrintCopy>
        </div>
      )}
    </Dialog>
  );
}
