import { useCallback, useEffect, useRef, useState } from 'react';
import type { CardPayment } from '@comanda/contract';
import { toast } from 'sonner';
import {
  CARD_MINIMUM_CENTS,
  PAYMENT_METHOD_LABELS,
  TERMINAL_MESSAGES,
  cardMinimumError,
  cents,
  type CardDialogState,
  type PaymentMethod,
} from '@comanda/domain';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import {
  isGoing,
  newAttemptKey,
  recallDialog,
  rememberDialog,
  useActiveCardPayment,
  useCancelCardPayment,
  useCardPayment,
  useEnabledTerminals,
  useStartCardPayment,
} from './card-payment-api.ts';
import { Body } from './card-payment-views.tsx';

export interface CardPaymentDialogProps {
  open: boolean;
  orderId: string;
  method: Extract<PaymentMethod, 'tarjeta' | 'transferencia'>;
  tipBps: number;
  peopleCount: number;
  /** Total the screen shows, in centavos; the server recomputes and decides. */
  expectedTotal: number;
  onClose: () => void;
  onPaid: () => void;
}

const SUCCESS_PAUSE_MS = 1500;

/**
 * Card and transfer payments at a Mercado Pago Point terminal. The server owns the payment
 * session (it creates, polls and closes the order); this dialog shows its state (SPEC §4) and,
 * after a reload, resumes the order's live attempt instead of starting another.
 */
export function CardPaymentDialog({ open, orderId, method, tipBps, peopleCount, expectedTotal, onClose, onPaid }: CardPaymentDialogProps) {
  const active = useActiveCardPayment(orderId);
  const [memory] = useState(() => recallDialog(orderId));
  const [sessionId, setSessionId] = useState<string | null>(memory?.sessionId ?? null);
  const [resumed, setResumed] = useState(memory?.shown ?? false);
  const [terminalId, setTerminalId] = useState<string | null>(memory?.terminalId ?? null);
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const attemptKey = useRef(newAttemptKey());
  const visible = open || resumed;
  const terminals = useEnabledTerminals(visible);
  const session = useCardPayment(sessionId);
  const start = useStartCardPayment();
  const cancel = useCancelCardPayment();
  const payment = session.data;
  useEffect(() => rememberDialog(orderId, { sessionId, terminalId, shown: visible }), [orderId, sessionId, terminalId, visible]);

  const adopt = (p: CardPayment, reopen: boolean) => {
    setSessionId(p.id);
    setTerminalId(p.terminalId);
    if (reopen) {
      setResumed(true);
      toast.info(t.card.resumed);
    }
  };
  // After a reload the order's live attempt comes back on screen by itself.
  const checkedOnLoad = useRef(false);
  useEffect(() => {
    if (checkedOnLoad.current || active.isPending) return;
    checkedOnLoad.current = true;
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
    if (list?.length === 1 && !terminalId) setTerminalId(list[0]!.id);
  }, [list, terminalId]);

  const view: CardDialogState = confirming
    ? 'confirm-close'
    : sessionId
      ? (payment?.dialogState ?? 'sending')
      : start.isPending
        ? 'sending'
        : failure
          ? 'error'
          : terminalId
            ? 'initial'
            : 'select-terminal';

  const paid = () => {
    setResumed(false);
    onPaid();
  };
  const paidRef = useRef(paid);
  paidRef.current = paid;
  useEffect(() => {
    if (view !== 'success') return;
    const timer = setTimeout(() => paidRef.current(), SUCCESS_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [view]);

  const freshAttempt = () => {
    attemptKey.current = newAttemptKey();
    setSessionId(null);
    setFailure(null);
  };

  const send = async () => {
    if (!terminalId) return;
    setFailure(null);
    try {
      const p = await start.mutateAsync({ orderId, terminalId, method, tipBps, peopleCount, key: attemptKey.current });
      setSessionId(p.id);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'card_payment_in_progress') {
        const live = (await active.refetch()).data;
        if (live) return setSessionId(live.id);
      }
      // Refused by the server: nothing was created, so the next try is a new attempt.
      if (error instanceof ApiError && error.status > 0) attemptKey.current = newAttemptKey();
      setFailure(errorMessage(error, TERMINAL_MESSAGES.createFailed));
    }
  };

  const close = () => {
    setConfirming(false);
    setResumed(false);
    if (!isGoing(payment)) freshAttempt();
    onClose();
  };

  const requestClose = () => (view === 'sending' || view === 'processing' ? setConfirming(true) : close());
  // Stable for the Dialog, which re-focuses when its onClose changes (this re-renders on every poll).
  const closeRef = useRef(requestClose);
  closeRef.current = requestClose;
  const onDialogClose = useCallback(() => closeRef.current(), []);

  const closeWithoutPaying = async () => {
    if (sessionId) await cancel.mutateAsync(sessionId).catch(() => undefined);
    // Whatever the terminal does next, the server settles it; reopening shows it again if it is still going.
    setSessionId(null);
    attemptKey.current = newAttemptKey();
    void active.refetch();
    close();
  };

  const amount = payment?.amount ?? expectedTotal;
  const tooSmall = expectedTotal < CARD_MINIMUM_CENTS ? cardMinimumError(cents(expectedTotal)) : null;
  const reason = failure ?? payment?.message ?? TERMINAL_MESSAGES.unexpected;

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
          onTerminal={setTerminalId}
          tooSmall={tooSmall}
          reason={reason}
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
                <Button variant="outline" onClick={() => setTerminalId(null)}>
                  {t.card.changeTerminal}
                </Button>
              )}
              <Button variant="accent" size="lg" disabled={Boolean(tooSmall)} onClick={() => void send()} data-autofocus>
                {t.card.send}
              </Button>
            </>
          )}
          {(view === 'sending' || view === 'processing') && (
            <Button variant="outline" onClick={() => setConfirming(true)}>
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
              <Button variant="accent" onClick={freshAttempt} data-autofocus>
                {view === 'rejected' ? t.card.retry : t.card.tryAgain}
              </Button>
            </>
          )}
          {view === 'confirm-close' && (
            <>
              <Button variant="danger" disabled={cancel.isPending} onClick={() => void closeWithoutPaying()}>
                {t.card.closeAnyway}
              </Button>
              <Button variant="primary" onClick={() => setConfirming(false)} data-autofocus>
                {t.card.keepWaiting}
              </Button>
            </>
          )}
        </div>
      </div>
    </Dialog>
  );
}
