import { useId, useState } from 'react';
import { toast } from 'sonner';
import type { CardPayment } from '@comanda/contract';
import { Button } from './ui/button.tsx';
import { Input, Label } from './ui/input.tsx';
import { errorMessage } from '../lib/api.ts';
import { useSettleCardReview } from '../lib/card-reviews.ts';
import { money } from '../lib/format.ts';
import { t } from '../lib/i18n/es-MX.ts';
import { useBusinessDates } from '../lib/dates.ts';

/**
 * One approved card charge waiting for review: what the terminal took and why it did not close
 * the order; an admin settles it here ('Registrar como pago' or 'Marcar como reembolsado en la
 * terminal'), the server re-checks everything and audits it.
 */
export function CardReviewEntry({ payment, canSettle, extra }: { payment: CardPayment; canSettle: boolean; extra?: string }) {
  const dates = useBusinessDates();
  const { record, refunded } = useSettleCardReview();
  const [refunding, setRefunding] = useState(false);
  const [note, setNote] = useState('');
  const noteId = useId();
  const busy = record.isPending || refunded.isPending;

  // The answer's promise, not mutate()'s callbacks: a settled charge leaves the list, maybe before it.
  const failed = (error: Error) => toast.error(errorMessage(error, t.cardReview.error));
  const onRecord = () => void record.mutateAsync(payment).then(() => toast.success(t.cardReview.recordedToast), failed);
  const onRefunded = () => void refunded.mutateAsync({ ...payment, note }).then(() => toast.success(t.cardReview.refundedToast), failed);

  return (
    <div className="space-y-2" data-testid="card-review" data-payment-id={payment.id}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-semibold tabular-nums">{t.cardReview.charged(money(payment.approvedAmount ?? payment.amount))}</p>
        <p className="text-xs text-slate-500">
          {dates.dateTime(payment.updatedAt)}
          {payment.providerPaymentId && ` · ${t.cardReview.paymentId(payment.providerPaymentId)}`}
        </p>
      </div>
      {extra && <p className="text-sm text-slate-600">{extra}</p>}
      {payment.message && <p className="text-sm text-slate-700">{payment.message}</p>}
      {canSettle && !refunding && (
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="primary" disabled={busy} onClick={onRecord}>
            {t.cardReview.record}
          </Button>
          <Button size="sm" variant="outline" disabled={busy} onClick={() => setRefunding(true)}>
            {t.cardReview.refunded}
          </Button>
        </div>
      )}
      {canSettle && refunding && (
        <div className="space-y-2">
          <Label htmlFor={noteId}>{t.cardReview.refundNote}</Label>
          <Input id={noteId} value={note} maxLength={300} onChange={(e) => setNote(e.target.value)} />
          <div className="flex flex-wrap gap-2">
            <Button size="sm" variant="outline" disabled={busy} onClick={() => setRefunding(false)}>
              {t.app.cancel}
            </Button>
            <Button size="sm" variant="danger" disabled={busy} onClick={onRefunded}>
              {t.cardReview.confirmRefund}
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
