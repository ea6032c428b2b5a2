import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { Order } from '@comanda/contract';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { orderKey } from '../../lib/orders.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useAddPayment } from './use-add-payment.ts';
import { useCashPayment } from './use-cash-payment.ts';
import { rememberMethod } from './last-method.ts';
import type { useCheckoutForm } from './use-checkout-form.ts';

type CheckoutForm = ReturnType<typeof useCheckoutForm>;

/** Which step of paying is on screen: the cashier's PIN (cash or a transfer), the transfer's choice, the terminal. */
export type PayStep =
  { kind: 'cash-pin' } | { kind: 'transfer' } | { kind: 'transfer-pin'; reference: string } | { kind: 'terminal' } | null;

/** A wrong PIN (or too many) stays in the PIN dialog to try again; anything else is about the order. */
const staysInPin = (error: unknown) => error instanceof ApiError && (error.code === 'wrong_pin' || error.status === 429);

/**
 * The checkout's Finalizar: cash asks the cashier's PIN and closes; Transferencia leads with
 * 'Registrar transferencia' (reference and PIN, the mixed payments' transfer for the whole
 * balance), the terminal as its other choice; Tarjeta opens the terminal. A second tap while the
 * first is handled does nothing.
 */
export function useCheckoutPay(order: Order, form: CheckoutForm) {
  const qc = useQueryClient();
  const cash = useCashPayment(order.id);
  const transfer = useAddPayment(order.id);
  const [step, setStepState] = useState<PayStep>(null);
  // Read by a second tap that may come before the first one's render.
  const current = useRef<PayStep>(null);
  const setStep = (next: PayStep) => {
    current.current = next;
    setStepState(next);
  };

  const paid = () => {
    rememberMethod(form.method);
    setStep(null);
    toast.success(t.checkout.paidToast);
  };
  const failed = (error: unknown) => {
    setStep(null);
    toast.error(errorMessage(error, t.checkout.closeError));
    void qc.invalidateQueries({ queryKey: orderKey(order.id) });
  };

  const finish = () => {
    if (current.current !== null || cash.isPending || transfer.isPending) return;
    if (form.method === 'tarjeta') return setStep({ kind: 'terminal' });
    if (form.method === 'transferencia') return setStep({ kind: 'transfer' });
    if (form.receivedCents === null) return void toast.error(t.checkout.receivedRequired);
    if (form.receivedCents < form.figures.total) return void toast.error(t.checkout.receivedShort);
    setStep({ kind: 'cash-pin' });
  };

  const submitCashPin = async (pin: string) => {
    try {
      await cash.mutateAsync({ pin, tipBps: form.tipBps, splitCount: form.splitCount, receivedAmount: form.receivedCents ?? 0 });
      paid();
    } catch (error) {
      if (staysInPin(error)) throw error;
      failed(error);
    }
  };

  const submitTransferPin = async (pin: string) => {
    const reference = current.current?.kind === 'transfer-pin' ? current.current.reference : '';
    try {
      await transfer.mutateAsync({
        method: 'transferencia',
        pin,
        amount: order.balance,
        tipBps: form.tipBps,
        splitCount: form.splitCount,
        ...(reference ? { reference } : {}),
      });
      paid();
    } catch (error) {
      if (staysInPin(error)) throw error;
      failed(error);
    }
  };

  return {
    step,
    /** Finalizar's label and lock: a cash close or a transfer being recorded. */
    pending: cash.isPending || transfer.isPending,
    finish,
    close: () => setStep(null),
    /** The transfer's PIN dismissed: back to its choice. */
    backToTransfer: () => setStep({ kind: 'transfer' }),
    registerTransfer: (reference: string) => setStep({ kind: 'transfer-pin', reference }),
    toTerminal: () => setStep({ kind: 'terminal' }),
    submitCashPin,
    submitTransferPin,
    /** The terminal closed the order. */
    terminalPaid: () => {
      paid();
      void qc.invalidateQueries({ queryKey: orderKey(order.id) });
    },
  };
}
