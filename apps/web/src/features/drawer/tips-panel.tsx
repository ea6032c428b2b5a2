import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { HandCoins } from 'lucide-react';
import { TipPayoutBodySchema, type DrawerMovementView, type TipPayoutBody, type TipRow, type TipsResponse } from '@comanda/contract';
import { pesosToCents } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { EmptyState, ErrorState } from '../../components/ui/empty-state.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { PinInput } from '../../components/ui/pin-input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Tabs } from '../../components/ui/tabs.tsx';
import { errorMessage } from '../../lib/api.ts';
import { newIdempotencyKey } from '../../lib/ids.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { TipPoolCard } from './tip-pool-card.tsx';
import { usePayTip, useTips, type TipsScope } from './tips-api.ts';
import { useBusinessDates } from '../../lib/dates.ts';
import { useZodForm } from '../../lib/use-zod-form.ts';

const L = t.tips;

/** The Propinas tab of /admin/caja: tips per person, payouts from the open session, pooling rules. */
export function TipsPanel({ onSlip }: { onSlip: (m: DrawerMovementView, printJobs: number) => void }) {
  const dates = useBusinessDates();
  const [scope, setScope] = useState<TipsScope>({ kind: 'session' });
  const tips = useTips(scope);
  const [paying, setPaying] = useState<TipRow | null>(null);
  const data = tips.data;
  // Without an open session the server answers with today's business date: the range form starts there.
  const pickRange = () =>
    setScope({ kind: 'range', from: data?.fromDate ?? dates.today(), to: data?.toDate ?? data?.fromDate ?? dates.today() });

  return (
    <div className="space-y-6" data-testid="tips-panel">
      <Card className="space-y-4 p-5">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="max-w-2xl">
            <h2 className="flex items-center gap-2 text-lg font-semibold text-slate-900">
              <HandCoins className="h-5 w-5" aria-hidden />
              {L.title}
            </h2>
            <p className="text-sm text-slate-500">{L.hint}</p>
          </div>
          <Tabs
            label={L.scopeLabel}
            tabs={[
              { value: 'session', label: L.scopeSession },
              { value: 'range', label: L.scopeRange },
            ]}
            value={scope.kind}
            onChange={(v) => (v === 'session' ? setScope({ kind: 'session' }) : pickRange())}
          />
        </div>
        {scope.kind === 'range' && <RangeForm scope={scope} onChange={setScope} />}
        {data && <ScopeNote data={data} scope={scope} />}
        {tips.isPending && <Spinner />}
        {tips.isError && <ErrorState message={errorMessage(tips.error, L.loadError)} onRetry={() => void tips.refetch()} />}
        {data && data.rows.length === 0 && <EmptyState title={L.empty} />}
        {data && data.rows.length > 0 && <TipsTable data={data} onPay={setPaying} />}
      </Card>
      <TipPoolCard pool={data?.pool ?? null} />
      <PayDialog
        row={paying}
        onClose={() => setPaying(null)}
        onPaid={(m, jobs) => {
          setPaying(null);
          onSlip(m, jobs);
        }}
      />
    </div>
  );
}

function RangeForm({ scope, onChange }: { scope: Extract<TipsScope, { kind: 'range' }>; onChange: (s: TipsScope) => void }) {
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div>
        <Label htmlFor="tips-from">{L.from}</Label>
        <Input
          id="tips-from"
          type="date"
          value={scope.from}
          onChange={(e) => e.target.value && onChange({ ...scope, from: e.target.value })}
        />
      </div>
      <div>
        <Label htmlFor="tips-to">{L.to}</Label>
        <Input id="tips-to" type="date" value={scope.to} onChange={(e) => e.target.value && onChange({ ...scope, to: e.target.value })} />
      </div>
    </div>
  );
}

function ScopeNote({ data, scope }: { data: TipsResponse; scope: TipsScope }) {
  const dates = useBusinessDates();
  const note =
    scope.kind === 'session' && data.sessionId === null
      ? L.noSessionHint
      : data.payable
        ? null
        : scope.kind === 'range'
          ? L.rangeHint
          : null;
  return (
    <div className="space-y-1 text-sm text-slate-600">
      <p>
        {dates.dateTime(data.from)} – {dates.dateTime(data.to)}
      </p>
      {data.pool.enabled && (
        <p className="font-medium text-amber-800" data-testid="pool-on">
          {L.poolOn(data.pool.percents.waiter, data.pool.percents.kitchen, data.pool.percents.barra)}
        </p>
      )}
      {note && <p>{note}</p>}
    </div>
  );
}

function TipsTable({ data, onPay }: { data: TipsResponse; onPay: (r: TipRow) => void }) {
  const pooled = data.pool.enabled;
  const num = 'px-3 py-2 text-right tabular-nums';
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" data-testid="tips-table">
        <thead className="border-b border-slate-200 text-left text-slate-600">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              {L.person}
            </th>
            <th scope="col" className={`${num} font-medium`}>
              {L.cash}
            </th>
            <th scope="col" className={`${num} font-medium`}>
              {L.card}
            </th>
            <th scope="col" className={`${num} font-medium`}>
              {L.transfer}
            </th>
            {pooled && (
              <th scope="col" className={`${num} font-medium`}>
                {L.share}
              </th>
            )}
            <th scope="col" className={`${num} font-medium`}>
              {L.paid}
            </th>
            <th scope="col" className={`${num} font-medium`}>
              {L.owed}
            </th>
            <th scope="col" className="px-3 py-2">
              <span className="sr-only">{L.pay}</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {data.rows.map((r) => (
            <tr key={r.userId || 'none'} data-testid="tips-row">
              <th scope="row" className="px-3 py-2 text-left font-medium text-slate-900">
                {r.userId ? r.name : L.noWaiter}
                {r.role && <span className="ml-2 text-xs font-normal text-slate-500">{L.roles[r.role] ?? r.role}</span>}
              </th>
              <td className={num}>{money(r.cash)}</td>
              <td className={num}>{money(r.card)}</td>
              <td className={num}>{money(r.transfer)}</td>
              {pooled && <td className={num}>{money(r.share)}</td>}
              <td className={num}>{money(r.paid)}</td>
              <td className={`${num} font-semibold text-slate-900`} data-testid="tips-owed">
                {money(r.owed)}
              </td>
              <td className="px-3 py-2 text-right">
                {data.payable && r.userId && r.owed > 0 && (
                  <Button size="sm" variant="primary" onClick={() => onPay(r)} aria-label={L.payTo(r.name)}>
                    {L.pay}
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot className="border-t-2 border-slate-200 font-semibold text-slate-900">
          <tr>
            <th scope="row" className="px-3 py-2 text-left">
              {L.total}
            </th>
            <td className={num}>{money(data.totals.cash)}</td>
            <td className={num}>{money(data.totals.card)}</td>
            <td className={num}>{money(data.totals.transfer)}</td>
            {pooled && <td className={num}>{money(data.totals.card + data.totals.transfer)}</td>}
            <td className={num}>{money(data.totals.paid)}</td>
            <td className={num}>{money(data.totals.owed)}</td>
            <td />
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

/** Amount (default: all that is owed) and the receiver's PIN; the server checks both again. */
function PayDialog({
  row,
  onClose,
  onPaid,
}: {
  row: TipRow | null;
  onClose: () => void;
  onPaid: (m: DrawerMovementView, printJobs: number) => void;
}) {
  const [key, setKey] = useState('');
  const pay = usePayTip();
  const form = useZodForm({
    initial: { amount: '', pin: '' },
    schema: TipPayoutBodySchema,
    // The screen's own words for an amount that cannot be read or is not above zero.
    before: (v) => {
      const cents = pesosToCents(v.amount);
      return cents === null || cents <= 0 ? L.badAmount : null;
    },
    toInput: (v) => ({ userId: row?.userId, amount: pesosToCents(v.amount), pin: v.pin }),
    check: (v) => (row && (pesosToCents(v.amount) ?? 0) > row.owed ? L.overOwed : null),
    onValid: (body) => void payOut(body),
  });
  const { reset } = form;
  useEffect(() => {
    if (!row) return;
    reset({ amount: (row.owed / 100).toFixed(2), pin: '' });
    // One key per payout: a retry after a lost answer is the same payout.
    setKey(newIdempotencyKey('tip'));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- another row starts over; reset is new each render
  }, [row]);
  if (!row) return null;
  const { amount, pin } = form.values;
  const payOut = async (body: TipPayoutBody) => {
    try {
      const { movement, printJobs } = await pay.mutateAsync({ body, key });
      toast.success(L.paidToast(row.name, money(body.amount)));
      onPaid(movement, printJobs);
    } catch (err) {
      form.setError(errorMessage(err, L.error));
      form.set('pin', '');
    }
  };
  return (
    <Dialog
      open
      locked={pay.isPending}
      onClose={onClose}
      title={L.payTo(row.name)}
      footer={
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={onClose} disabled={pay.isPending}>
            {L.cancel}
          </Button>
          <Button variant="accent" onClick={form.submit} disabled={pay.isPending || pin.length < 4}>
            {L.confirm}
          </Button>
        </div>
      }
    >
      <form className="space-y-4" onSubmit={form.onSubmit}>
        <p className="text-sm text-slate-600">{L.payHint(money(row.owed))}</p>
        <div>
          <Label htmlFor="tip-amount">{L.amount}</Label>
          <Input id="tip-amount" inputMode="decimal" value={amount} onChange={(e) => form.set('amount', e.target.value)} />
        </div>
        <div>
          <Label htmlFor="tip-pin">{L.pinLabel(row.name)}</Label>
          <PinInput id="tip-pin" digitsOnly value={pin} onValue={(v) => form.set('pin', v)} />
          <p className="mt-1 text-xs text-slate-500">{L.pinHint}</p>
        </div>
        {form.error && <FormError message={form.error} />}
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}
