import { useId } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Divide } from 'lucide-react';
import { EqualSharesBodySchema, type Order, SplitChecksResponseSchema } from '@comanda/contract';
import { EQUAL_SHARES_MAX } from '@comanda/domain';
import { errorMessage, onlineOnly, post } from '../lib/api.ts';
import { newIdempotencyKey } from '../lib/ids.ts';
import { orderKey } from '../lib/orders.ts';
import { t } from '../lib/i18n/es-MX.ts';
import { useZodForm } from '../lib/use-zod-form.ts';
import { Button } from './ui/button.tsx';
import { Input, Label } from './ui/input.tsx';

const S = t.equalShares;

/**
 * Splits the order into N equal checks (decision 0022): the server creates the share checks and
 * answers the order first, then them. It needs the server at once (it depends on the order as
 * the server holds it), so offline it is refused immediately with its own message.
 */
export function useEqualShares(order: Pick<Order, 'id' | 'tableId'>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (count: number) =>
      (
        await onlineOnly(S.offline, () =>
          post(SplitChecksResponseSchema, `/api/orders/${order.id}/shares`, { count }, { 'Idempotency-Key': newIdempotencyKey('shares') }),
        )
      ).orders,
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: ['table-order', order.tableId] });
      void qc.invalidateQueries({ queryKey: ['table-checks', order.tableId] });
      void qc.invalidateQueries({ queryKey: ['tables'] });
      void qc.invalidateQueries({ queryKey: orderKey(order.id) });
    },
  });
}

/** The count the field stands for: a whole number within 2 and the maximum; anything else is 2. */
function sharesCount(text: string): number {
  const parsed = Number(text);
  return Number.isInteger(parsed) ? Math.min(EQUAL_SHARES_MAX, Math.max(2, parsed)) : 2;
}

/** "Dividir en cuentas iguales": how many, and one button; `onDone` gets the order and its new checks. */
export function EqualSharesForm({ order, onDone }: { order: Pick<Order, 'id' | 'tableId'>; onDone: (orders: Order[]) => void }) {
  const id = useId();
  const split = useEqualShares(order);
  const form = useZodForm({
    initial: { text: '2' },
    schema: EqualSharesBodySchema,
    toInput: ({ text }) => ({ count: sharesCount(text) }),
    // The answer's promise, not mutate()'s callbacks: the order's live event can hide this form before it.
    onValid: ({ count }) =>
      void split.mutateAsync(count).then(
        (orders) => {
          toast.success(S.done(orders.length));
          onDone(orders);
        },
        (error: Error) => toast.error(errorMessage(error, S.error)),
      ),
    onInvalid: (message) => toast.error(message),
  });
  const count = sharesCount(form.values.text);
  return (
    <div data-testid="equal-shares-form">
      <p className="font-medium">{S.title}</p>
      <p className="mb-2 text-xs text-slate-600">{S.hint}</p>
      <div className="flex items-end gap-2">
        <div className="w-24">
          <Label htmlFor={id}>{S.parts}</Label>
          <Input
            id={id}
            type="number"
            inputMode="numeric"
            min={2}
            max={EQUAL_SHARES_MAX}
            step={1}
            value={form.values.text}
            onChange={(e) => form.set('text', e.target.value)}
          />
        </div>
        <Button variant="outline" disabled={split.isPending} onClick={form.submit}>
          <Divide className="h-4 w-4" aria-hidden />
          {S.submit(count)}
        </Button>
      </div>
    </div>
  );
}
