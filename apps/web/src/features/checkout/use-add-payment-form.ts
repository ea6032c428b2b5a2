import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { AddPaymentBodySchema, type AddPaymentBody, type AddPaymentResponse } from '@comanda/contract';
import { cents, centsToPesos, chargeFigures, pesosToCents, ZERO, type Cents, type PaymentMethod } from '@comanda/domain';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useZodForm } from '../../lib/use-zod-form.ts';
import { useAddPayment } from './use-add-payment.ts';

const P = t.payments;

/** The dialog's fields as typed: amounts in pesos, the tip as a rate. */
interface PartFields {
  method: PaymentMethod;
  amount: string;
  tipBps: number;
  received: string;
  reference: string;
}

/** The part (blank: none), its total with the tip, and the cash received (blank: none), in centavos. */
export function partFigures(v: PartFields) {
  const part = v.amount.trim() === '' ? null : pesosToCents(v.amount);
  const total = part !== null && part > 0 ? chargeFigures(part, { bps: v.tipBps }).total : ZERO;
  const received = v.received.trim() === '' ? null : pesosToCents(v.received);
  return { part, total, received };
}

interface Options {
  open: boolean;
  orderId: string;
  balance: Cents;
  proposed: Cents | null;
  onCard: (part: Cents, tipBps: number) => void;
  onRecorded: (res: AddPaymentResponse) => void;
}

/**
 * 'Agregar pago''s fields, checked by the add-payment request's schema (problems said in a toast);
 * a valid cash or transfer part then waits for the cashier's PIN, a card part goes to the terminal.
 */
export function useAddPaymentForm({ open, orderId, balance, proposed, onCard, onRecorded }: Options) {
  const [paying, setPaying] = useState<AddPaymentBody | null>(null);
  const add = useAddPayment(orderId);
  const fresh = (): PartFields => ({
    method: 'efectivo',
    amount: centsToPesos(proposed ?? balance),
    tipBps: 0,
    received: '',
    reference: '',
  });
  const form = useZodForm({
    initial: fresh,
    schema: AddPaymentBodySchema,
    before: (v) => {
      const { part } = partFigures(v);
      return part === null || part <= 0 ? P.amountRequired : null;
    },
    // A card part is checked by the same figures; the terminal's own request is the card dialog's.
    toInput: (v) => ({
      method: v.method === 'transferencia' ? 'transferencia' : 'efectivo',
      pin: '',
      amount: partFigures(v).part,
      tipBps: v.tipBps,
      ...(v.method === 'efectivo' ? { receivedAmount: partFigures(v).received ?? 0 } : {}),
      ...(v.method === 'transferencia' && v.reference.trim() ? { reference: v.reference.trim() } : {}),
    }),
    check: (v) => {
      const { part, total, received } = partFigures(v);
      if (part !== null && part > balance) return P.overBalance;
      if (v.method === 'efectivo' && (received === null || received < total)) return P.receivedShort;
      return null;
    },
    onValid: (body, v) => (v.method === 'tarjeta' ? onCard(cents(body.amount), v.tipBps) : setPaying(body)),
    onInvalid: (message) => toast.error(message),
  });
  const { reset } = form;
  useEffect(() => {
    if (open) reset(fresh());
    // eslint-disable-next-line react-hooks/exhaustive-deps -- each opening starts over; reset and fresh are new each render
  }, [open, proposed, balance]);

  const submitPin = async (pin: string) => {
    if (!paying) return;
    try {
      const res = await add.mutateAsync({ ...paying, pin });
      setPaying(null);
      toast.success(res.closed ? P.closedToast : P.partToast);
      onRecorded(res);
    } catch (error) {
      if (error instanceof ApiError && (error.code === 'wrong_pin' || error.status === 429)) throw error;
      setPaying(null);
      toast.error(errorMessage(error, P.error));
    }
  };

  return { form, add, paying, setPaying, submitPin };
}
