import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { CardPayment } from '@comanda/contract';
import { toast } from 'sonner';
import { CARD_MINIMUM_CENTS, PAYMENT_METHOD_LABELS, TERMINAL_MESSAGES, cardMinimumError, cents, type PaymentMethod } from '@comanda/domain';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import {
  isGoing,
  newAttemptKey,
  useActiveCardPayment,
  useCancelCardPayment,
  useCardPayment,
  useEnabledTerminals,
  useStartCardPayment,
} from './card-payment-api.ts';
import { Body } from './card-payment-views.tsx';
import { cardDialogReducer, cardDialogView, initialCardDialog } from './card-dialog-state.ts';
import { useCardDialogMemory } from './card-dialog-memory.tsx';

export interface CardPaymentDialogProps {
  open: boolean;
  orderId: string;
  method: Extract<PaymentMethod, 'tarjeta' | 'transferencia'>;
  tipBps: number;
  /** What the checkout's calculator divides the check by (omitted for a part of a mixed payment). */
  splitCount?: number;
  /** Total the screen shows, in centavos; the server recomputes and decides. */
  expectedTotal: number;
  /** A part of the balance to charge (mixed payments); omitted: the whole balance. */
  partAmount?: number;
  onClose: () => void;
  onPaid: () => void;
}

const SUCCESS_PAUSE_MS = 1500;

/**
 * Card and transfer payments at a Mercado Pago Point terminal. The server owns the payment
 * session (it creates, polls and closes the order); this dialog shows its state (SPEC §4) and,
 * after a reload, resumes the order's live attempt instead of starting another.
 */
export function CardPaymentDialog({
  open,
  orderId,
  method,
  tipBps,
  splitCount,
  expectedTotal,
  partAmount,
  onClose,
  onPaid,
}: CardPaymentDialogProps) {
  const active = useActiveCardPayment(orderId);
  const memory = useCardDialogMemory(orderId);
  const [state, dispatch] = useReducer(cardDialogReducer, undefined, () => initialCardDialog(memory.recall(), newAttemptKey()));
  const { sessionId, terminalId } = state;
  const visible = open || state.resumed;
  const terminals = useEnabledTerminals(visible);
  const session = useCardPayment(sessionId);
  const start = useStartCardPayment();
  const cancel = useCancelCardPayment();
  const payment = session.data;
  const view = cardDialogView(state, payment, start.isPending);
  useEffect(() => memory.remember({ sessionId, terminalId, resumed: visible }), [memory, sessionId, terminalId, visible]);

  const adopt = (p: CardPayment, reopen: boolean) => {
    dispatch({ type: 'adopt', payment: p, reopen });
    if (reopen) toast.info(t.card.resumed);
  };
  // After a reload the order's live attempt comes back on screen by itself (the first answer only).
  useEffect(() => {
    if (state.checkedOnLoad || active.isPending) return;
    dispatch({ type: 'checked-on-load' });
    if (active.data && !sessionId) adopt(active.data, !open);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the first answer counts
  }, [active.isPending]);
  // Reopened after 'Cerrar sin cobrar' while the customer still had the terminal: show that attempt.
  useEffect(() => {
    if (!open || sessionId) return;
    void active.refetch().then((r) => r.data && adopt(r.data, false));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on opening only
  }, [open]);

  const list = terminals.data;
  useEffect(() => {
    if (list?.length === 1 && !terminalId) dispatch({ type: 'terminal', id: list[0]!.id });
  }, [list, terminalId]);

  const paid = () => {
    dispatch({ type: 'paid' });
    onPaid();
  };
  // The latest handlers, for the success pause and for the Dialog, which re-focuses when its
  // onClose changes (this re-renders on every poll).
  const latest = useRef({ paid, requestClose: () => {} });
  useEffect(() => {
    if (view !== 'success') return;
    const timer = setTimeout(() => latest.current.paid(), SUCCESS_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [view]);

  const send = async () => {
    if (!terminalId) return;
    dispatch({ type: 'sending' });
    try {
      const part = partAmount === undefined ? {} : { amount: partAmount };
      const split = splitCount === undefined ? {} : { splitCount };
      const p = await start.mutateAsync({ orderId, terminalId, method, tipBps, ...split, ...part, key: state.attemptKey });
      dispatch({ type: 'started', id: p.id });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'card_payment_in_progress') {
        const live = (await active.refetch()).data;
        if (live) return dispatch({ type: 'started', id: live.id });
      }
      // Refused by the server: nothing was created, so the next try is a new attempt.
      const refused = error instanceof ApiError && error.status > 0;
      dispatch({ type: 'failed', message: errorMessage(error, TERMINAL_MESSAGES.createFailed), newKey: refused ? newAttemptKey() : null });
    }
  };

  const close = () => {
    dispatch({ type: 'closed', going: isGoing(payment), newKey: newAttemptKey() });
    onClose();
  };

  const requestClose = () => (view === 'sending' || view === 'processing' ? dispatch({ type: 'confirm', asking: true }) : close());
  latest.current = { paid, requestClose };
  const onDialogClose = useCallback(() => latest.current.requestClose(), []);

  const closeWithoutPaying = async () => {
    if (sessionId) await cancel.mutateAsync(sessionId).catch(() => undefined);
    // Whatever the terminal does next, the server settles it; reopening shows it again if it is still going.
    dispatch({ type: 'abandoned', newKey: newAttemptKey() });
    void active.refetch();
    onClose();
  };

  const amount = payment?.amount ?? expectedTotal;
  const tooSmall = expectedTotal < CARD_MINIMUM_CENTS ? cardMinimumError(cents(expectedTotal)) : null;
  const reason = state.failure ?? payment?.message ?? TERMINAL_MESSAGES.unexpected;

  return (
    <Dialog open={visible} onClose={onDialogClose} title={t.card.title(PAYMENT_METHOD_LABELS[payment?.method ?? method])} variant="sheet">
      <div className="space-y-4" data-testid="card-dialog" data-state={view}>
        <div className="rounded-xl bg-slate-50 p-3 text-center">
          <p className="text-xs uppercase tracking-wide text-slate-500">{t.card.amount}</p>
          <p className="text-3xl font-bold tabular-nums text-slate-900">{money(amount)}</p>
        </div>
        <Body
          view={view}
          terminals={terminals}
          terminalId={terminalId}
          onTerminal={(id) => dispatch({ type: 'terminal', id })}
          tooSmall={tooSmall}
          reason={reason}
          method={payment?.method ?? method}
          attempts={payment ? t.card.attempt(payment.attempts, payment.maxAttempts) : undefined}
        />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          {view === 'select-terminal' && (
            <Button variant="outline" onClick={close}>
              {t.card.close}
            </Button>
          )}
          {view === 'initial' && (
            <>
              {(list?.length ?? 0) > 1 && (
                <Button variant="outline" onClick={() => dispatch({ type: 'terminal', id: null })}>
                  {t.card.changeTerminal}
                </Button>
              )}
              <Button variant="accent" size="lg" disabled={Boolean(tooSmall)} onClick={() => void send()} data-autofocus>
                {t.card.send}
              </Button>
            </>
          )}
          {(view === 'sending' || view === 'processing') && (
            <Button variant="outline" onClick={() => dispatch({ type: 'confirm', asking: true })}>
              {t.card.cancel}
            </Button>
          )}
          {view === 'success' && (
            <Button variant="success" size="lg" onClick={paid}>
              {t.card.continue}
            </Button>
          )}
          {(view === 'rejected' || view === 'error') && (
            <>
              <Button variant="outline" onClick={close}>
                {t.card.close}
              </Button>
              <Button variant="accent" onClick={() => dispatch({ type: 'retry', newKey: newAttemptKey() })} data-autofocus>
                {view === 'rejected' ? t.card.retry : t.card.tryAgain}
              </Button>
            </>
          )}
          {view === 'confirm-close' && (
            <>
              <Button variant="danger" disabled={cancel.isPending} onClick={() => void closeWithoutPaying()}>
                {t.card.closeAnyway}
              </Button>
              <Button variant="primary" onClick={() => dispatch({ type: 'confirm', asking: false })} data-autofocus>
                {t.card.keepWaiting}
              </Button>
            </>
          )}
        </div>
      </div>
    </Dialog>
  );
}
