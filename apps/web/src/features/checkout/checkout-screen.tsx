import { Link } from 'react-router';
import { CheckCircle2, Eye, EyeOff, Printer, TriangleAlert } from 'lucide-react';
import type { Order } from '@comanda/contract';
import { PAYMENT_METHOD_LABELS } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { PinDialog } from '../../components/pin-dialog.tsx';
import { PrintableTicket } from '../../components/ticket/printable-ticket.tsx';
import { printTicket, TicketPrintCopy } from '../../components/ticket/print-ticket.tsx';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { CardPaymentDialog } from './card-payment-dialog.tsx';
import { CardReviewBanner } from './card-review-banner.tsx';
import { CheckoutHeader } from './checkout-header.tsx';
import { PaymentSection } from './payment-section.tsx';
import { PaymentsPanel } from './payments-panel.tsx';
import { SplitSection } from './split-section.tsx';
import { SummaryCard } from './summary-card.tsx';
import { TaxSummaryCard } from '../../components/ticket/tax-summary.tsx';
import { TipSection } from './tip-section.tsx';
import { TransferDialog } from './transfer-dialog.tsx';
import { useCheckoutScreen, type CheckoutScreenState } from './use-checkout-screen.ts';
import { orderScreenPath } from './order-screen-path.ts';

type Props = { order: Order; s: CheckoutScreenState };

/** The checkout of one loaded order: tip, split, method, cash, ticket, and the close. */
export function CheckoutScreen({ order }: { order: Order }) {
  const s = useCheckoutScreen(order);
  const { form, figures, open, gate, locked } = s;

  return (
    <div className={cn('space-y-4 pb-40 lg:pb-8', s.base === '/waiter' && 'p-4 pb-40')}>
      <CheckoutHeader order={order} backTo={open ? orderScreenPath(s.base, order) : s.home} />
      <CardReviewBanner orderId={order.id} />

      {open && !gate.ok && (
        <p role="alert" className="flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          {gate.message}
        </p>
      )}
      {!open && order.status === 'pagado' && <PaidBanner order={order} home={s.home} />}

      <div className="flex flex-col gap-4 lg:grid lg:grid-cols-[minmax(0,1fr)_380px] lg:items-start">
        <div className="contents lg:flex lg:flex-col lg:gap-4">
          <div className="order-2 lg:order-none">
            <TipSection choice={form.tip} tip={figures.tip} disabled={locked} onChange={form.setTip} />
          </div>
          <div className="order-3 lg:order-none">
            <PaymentSection
              method={form.method}
              received={form.received}
              receivedCents={form.receivedCents}
              total={figures.total}
              disabled={locked}
              onMethod={form.setMethod}
              onReceived={form.setReceived}
              onExact={form.fillExact}
              onAmount={s.setReceivedCents}
            />
          </div>
          <div className="order-4 lg:order-none">
            <SplitSection
              count={form.splitCount}
              entry={form.splitEntry}
              total={figures.total}
              disabled={locked}
              onPreset={form.choosePreset}
              onEntry={form.typeSplit}
            />
          </div>
          <PaymentsPanel order={order} className="order-6 lg:order-none" />
        </div>

        <div className="contents lg:sticky lg:top-4 lg:flex lg:flex-col lg:gap-4">
          <SummaryCard className="order-1 lg:order-none" figures={figures} itemCount={s.itemCount} />
          {/* On a phone the taxes read below the payment controls, so Exacto stays above the bar. */}
          <TaxSummaryCard className="order-5 lg:order-none" order={order} />
          <CheckoutBar order={order} s={s} />
          <TicketColumn order={order} s={s} />
        </div>
      </div>

      <TicketPrintCopy>
        <PrintableTicket order={order} business={s.business} figures={figures} now={s.openedAt} showPayment={!open} />
      </TicketPrintCopy>
      <CheckoutDialogs order={order} s={s} />
    </div>
  );
}

function PaidBanner({ order, home }: { order: Order; home: string }) {
  const payment = order.payments[0];
  return (
    <div
      className="flex items-center gap-2 rounded-lg border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-900"
      data-testid="paid-banner"
    >
      <CheckCircle2 className="h-5 w-5 shrink-0" aria-hidden />
      <div className="min-w-0">
        <p className="font-semibold">
          {t.checkout.paid}
          {order.paymentMethod && ` · ${PAYMENT_METHOD_LABELS[order.paymentMethod]}`}
        </p>
        {payment?.cashierName && <p>{t.checkout.paidBy(payment.cashierName)}</p>}
      </div>
      {/* On a phone the bottom bar carries it, large and always in view. */}
      <Link to={home} className="ml-auto hidden h-11 shrink-0 items-center font-medium underline lg:flex">
        {t.checkout.backToTables}
      </Link>
    </div>
  );
}

/**
 * On a phone the total and Finalizar stay at the thumb, fixed to the bottom edge; once
 * paid, the same bar says so and offers Volver a mesas. From lg up it is the side column.
 */
function CheckoutBar({ order, s }: Props) {
  const { figures, pay } = s;
  return (
    <div
      ref={s.barRef}
      data-testid="checkout-bar"
      className="fixed inset-x-0 bottom-0 z-40 order-7 border-t border-slate-200 bg-white/95 px-4 pt-2 pb-[max(0.75rem,env(safe-area-inset-bottom))] shadow-[0_-4px_12px_rgba(15,23,42,0.08)] backdrop-blur lg:static lg:z-auto lg:order-none lg:border-0 lg:bg-transparent lg:p-0 lg:shadow-none lg:backdrop-blur-none print:hidden"
    >
      <div className="mx-auto max-w-3xl space-y-2">
        {s.open ? (
          <p className="flex items-baseline justify-between lg:hidden">
            <span className="text-sm font-medium text-slate-600">{t.checkout.total}</span>
            <span className="text-2xl font-extrabold tabular-nums text-slate-900" data-testid="bar-total">
              {money(figures.total)}
            </span>
          </p>
        ) : (
          <div className="flex items-center justify-between gap-3 lg:hidden" data-testid="paid-bar">
            <p className="flex items-center gap-2 font-bold text-emerald-800">
              <CheckCircle2 className="h-6 w-6" aria-hidden />
              <span>
                {order.status === 'pagado' ? t.checkout.paid : t.checkout.cancelled}
                <span className="ml-2 tabular-nums">{money(figures.total)}</span>
              </span>
            </p>
            <Link
              to={s.home}
              className="flex h-12 shrink-0 items-center rounded-lg bg-slate-900 px-4 text-base font-semibold text-white hover:bg-slate-800"
            >
              {t.checkout.backToTables}
            </Link>
          </div>
        )}
        <div className="grid grid-cols-2 gap-2">
          <Button variant="outline" size="lg" onClick={printTicket}>
            <Printer className="h-5 w-5" aria-hidden />
            {t.checkout.print}
          </Button>
          <Button variant="accent" size="lg" disabled={s.locked || !s.gate.ok} onClick={pay.finish}>
            {pay.pending ? t.checkout.closing : t.checkout.finish}
          </Button>
        </div>
      </div>
    </div>
  );
}

function TicketColumn({ order, s }: Props) {
  return (
    <div className="order-5 lg:order-none">
      <Button variant="ghost" className="w-full lg:hidden" aria-expanded={s.showTicket} onClick={s.toggleTicket}>
        {s.showTicket ? <EyeOff className="h-4 w-4" aria-hidden /> : <Eye className="h-4 w-4" aria-hidden />}
        {s.showTicket ? t.checkout.hideTicket : t.checkout.showTicket}
      </Button>
      <div className={cn('rounded-xl border border-slate-200 bg-white shadow-sm', !s.showTicket && 'hidden lg:block')}>
        <PrintableTicket order={order} business={s.business} figures={s.figures} now={s.openedAt} showPayment={!s.open} />
      </div>
    </div>
  );
}

function CheckoutDialogs({ order, s }: Props) {
  const { form, pay, step } = s;
  return (
    <>
      <PinDialog
        open={step === 'cash-pin'}
        title={t.checkout.cashierPin}
        description={t.checkout.cashierPinHint}
        onClose={pay.close}
        onSubmit={pay.submitCashPin}
      />
      <TransferDialog
        open={step === 'transfer'}
        total={s.figures.total}
        busy={pay.pending}
        onClose={pay.close}
        onRegister={pay.registerTransfer}
        onTerminal={pay.toTerminal}
      />
      <PinDialog
        open={step === 'transfer-pin'}
        title={t.checkout.cashierPin}
        description={t.checkout.transfer.pinHint}
        onClose={pay.backToTransfer}
        onSubmit={pay.submitTransferPin}
      />
      {/* Always mounted: after a reload it brings back a card payment still running on the terminal. */}
      <CardPaymentDialog
        open={step === 'terminal'}
        orderId={order.id}
        method={s.terminalMethod}
        tipBps={form.tipBps}
        splitCount={form.splitCount}
        expectedTotal={s.figures.total}
        onClose={pay.close}
        onPaid={pay.terminalPaid}
      />
    </>
  );
}
