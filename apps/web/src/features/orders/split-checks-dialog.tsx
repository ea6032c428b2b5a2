import { useEffect, useMemo } from 'react';
import { toast } from 'sonner';
import { CheckCircle2, Minus, Plus, Trash2 } from 'lucide-react';
import { SplitChecksBodySchema, type Order } from '@comanda/contract';
import { activeItems, cents, checkName, planChecks, splitSums, type CheckTake } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { errorMessage } from '../../lib/api.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useSplitChecks } from './checks-api.ts';
import { CancelButton } from '../../components/ui/cancel-button.tsx';
import { useZodForm } from '../../lib/use-zod-form.ts';

/**
 * "Cuentas separadas": tap units of each line into new checks (B, C, …); what is not moved stays
 * in this order's check. A live sum per check, and the proof that all of it is assigned: the
 * checks add up to the order's total. The server re-checks everything and moves the units.
 */
export function SplitChecksDialog({
  order,
  tableId,
  open,
  onClose,
  firstIndex,
}: {
  order: Order;
  tableId: string;
  open: boolean;
  onClose: () => void;
  /** Index of the first new check's name (1 → 'Cuenta B'). */
  firstIndex: number;
}) {
  const lines = useMemo(() => activeItems(order.items), [order.items]);
  const split = useSplitChecks(tableId, order.id);
  const form = useZodForm({
    initial: { takes: [{}] as Record<string, number>[] },
    schema: SplitChecksBodySchema,
    toInput: ({ takes }) => ({
      checks: takes.map((take) => ({
        lines: Object.entries(take)
          .filter(([, q]) => q > 0)
          .map(([itemId, quantity]) => ({ itemId, quantity })),
      })),
    }),
    // The answer's promise, not mutate()'s callbacks: the order's live event can close this dialog before it.
    onValid: (body) =>
      void split.mutateAsync(body).then(
        (orders) => {
          toast.success(t.checks.splitDone(orders.length));
          onClose();
        },
        (error: Error) => toast.error(errorMessage(error, t.checks.splitError)),
      ),
    // Said as the server's refusal would be: in a toast.
    onInvalid: (message) => toast.error(message),
  });
  const { takes } = form.values;
  const setTakes = (change: (all: Record<string, number>[]) => Record<string, number>[]) =>
    form.update((v) => ({ takes: change(v.takes) }));
  const { reset } = form;
  useEffect(() => {
    if (open) reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- each opening starts over; reset is new each render
  }, [open]);

  const keep = order.tabName ?? checkName(0);
  const names = takes.map((_, k) => checkName(firstIndex + k));
  const left = (itemId: string, quantity: number) => quantity - takes.reduce((acc, take) => acc + (take[itemId] ?? 0), 0);
  const checkLines = lines.map((l) => ({ id: l.id, productPrice: cents(l.productPrice), quantity: l.quantity }));
  const plan = planChecks(checkLines, takes as CheckTake[]);
  const figures = splitSums(checkLines, takes as CheckTake[]);
  const sums = [figures.stays, ...figures.takes];
  const total = figures.total;
  const assigned = sums.reduce((a, b) => a + b, 0) === total;

  const step = (k: number, itemId: string, quantity: number, delta: number) =>
    setTakes((all) =>
      all.map((take, i) => {
        if (i !== k) return take;
        const current = take[itemId] ?? 0;
        const next = Math.max(0, Math.min(current + delta, current + left(itemId, quantity)));
        return { ...take, [itemId]: next };
      }),
    );
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t.checks.splitTitle}
      locked={split.isPending}
      variant="sheet"
      className="max-w-2xl"
      footer={
        <>
          <CancelButton onClick={onClose} disabled={split.isPending} />
          <Button variant="accent" onClick={form.submit} disabled={split.isPending || !plan.ok} data-testid="split-submit">
            {split.isPending ? t.checks.splitting : t.checks.split}
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        <p className="text-sm text-slate-600">{t.checks.splitHint}</p>
        <ul className="space-y-3">
          {lines.map((line) => (
            <li key={line.id} className="rounded-lg border border-slate-200 p-3" data-testid={`split-line-${line.id}`}>
              <div className="flex items-baseline justify-between gap-2">
                <span className="font-semibold">
                  {line.quantity} × {line.productName}
                </span>
                <span className="text-sm text-slate-500" data-testid="split-stays">
                  {t.checks.stays(keep)}: {left(line.id, line.quantity)}
                </span>
              </div>
              <div className="mt-2 flex flex-wrap gap-3">
                {takes.map((take, k) => (
                  <div key={k} className="flex items-center gap-2">
                    <span className="w-20 text-sm font-medium text-slate-700">{names[k]}</span>
                    <Button
                      variant="outline"
                      size="icon"
                      aria-label={t.checks.less(line.productName, names[k]!)}
                      disabled={(take[line.id] ?? 0) === 0}
                      onClick={() => step(k, line.id, line.quantity, -1)}
                    >
                      <Minus className="h-4 w-4" aria-hidden />
                    </Button>
                    <span className="w-6 text-center text-lg font-semibold tabular-nums">{take[line.id] ?? 0}</span>
                    <Button
                      variant="outline"
                      size="icon"
                      aria-label={t.checks.more(line.productName, names[k]!)}
                      disabled={left(line.id, line.quantity) === 0}
                      onClick={() => step(k, line.id, line.quantity, 1)}
                    >
                      <Plus className="h-4 w-4" aria-hidden />
                    </Button>
                  </div>
                ))}
              </div>
            </li>
          ))}
        </ul>
        <div className="grid gap-2 sm:grid-cols-2">
          {[keep, ...names].map((name, k) => (
            <div key={name} className="flex items-center justify-between rounded-lg bg-slate-50 px-3 py-2" data-testid="split-sum">
              <span className="font-medium">{name}</span>
              <span className="flex items-center gap-2">
                <span className="font-bold tabular-nums">{money(sums[k]!)}</span>
                {k > 0 && takes.length > 1 && (
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={t.checks.removeCheck(name)}
                    onClick={() => setTakes((all) => all.filter((_, i) => i !== k - 1))}
                  >
                    <Trash2 className="h-4 w-4" aria-hidden />
                  </Button>
                )}
              </span>
            </div>
          ))}
        </div>
        <Button variant="outline" onClick={() => setTakes((all) => [...all, {}])} disabled={takes.length >= 19}>
          <Plus className="h-4 w-4" aria-hidden />
          {t.checks.addCheck}
        </Button>
        <p className="flex items-center gap-2 text-sm" role="status">
          {assigned ? (
            <>
              <CheckCircle2 className="h-4 w-4 text-emerald-600" aria-hidden />
              {t.checks.allAssigned(money(total))}
            </>
          ) : (
            t.checks.mismatch
          )}
        </p>
        {!plan.ok && <p className="text-sm text-amber-700">{plan.message}</p>}
      </div>
    </Dialog>
  );
}
