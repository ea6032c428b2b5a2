import { useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { Printer, Receipt, Vault } from 'lucide-react';
import {
  CorteZBodySchema,
  DrawerMovementBodySchema,
  OpenDrawerBodySchema,
  type Corte,
  type DrawerMovementView,
  type DrawerSessionView,
} from '@comanda/contract';
import { overShortLabel, pesosToCents, type DenominationCount } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { ErrorState } from '../../components/ui/empty-state.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { Input, Label, Textarea } from '../../components/ui/input.tsx';
import { PinInput } from '../../components/ui/pin-input.tsx';
import { ScrollArea } from '../../components/ui/scroll-area.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Tabs } from '../../components/ui/tabs.tsx';
import { PinDialog } from '../../components/pin-dialog.tsx';
import { printTicket, TicketPrintCopy } from '../../components/ticket/print-ticket.tsx';
import { errorMessage } from '../../lib/api.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { DenominationForm } from './denomination-form.tsx';
import { CorteSlip, MovementSlip } from './drawer-print.tsx';
import { TipsPanel } from './tips-panel.tsx';
import { fetchCorteX, printCorteOnCaja, printMovementOnCaja, useAddMovement, useCorteZ, useDrawer, useOpenDrawer } from './drawer-api.ts';
import { useBusinessDates } from '../../lib/dates.ts';
import { useZodForm } from '../../lib/use-zod-form.ts';

const L = t.drawer;
const P = t.floorAndPrint;

/** A slip or corte on screen; `onCaja` queues it on the caja printer (0 jobs: there is none, print through the browser). */
interface Paper {
  title: string;
  node: ReactNode;
  onCaja: () => Promise<number>;
}

/** /admin/caja: open the drawer with a float, cash movements, corte X and the blind corte Z. */
export function CajaPage() {
  const drawer = useDrawer();
  // What the printer gets: the last slip or corte shown on screen.
  const [paper, setPaper] = useState<Paper | null>(null);
  const [printing, setPrinting] = useState(false);
  const corteToPaper = (title: string, c: Corte): Paper => ({
    title,
    node: <CorteSlip corte={c} />,
    onCaja: () => printCorteOnCaja(c.session.id),
  });
  const slipToPaper = (m: DrawerMovementView): Paper => ({
    title: L.printSlip,
    node: <MovementSlip movement={m} />,
    onCaja: () => printMovementOnCaja(m.id),
  });
  // Imprimir: the caja printer when one is set (through the print queue), else the browser's dialog.
  const print = async () => {
    if (!paper) return;
    setPrinting(true);
    try {
      if ((await paper.onCaja()) > 0) {
        toast.success(P.cajaSent);
        setPaper(null);
      } else printTicket();
    } catch (error) {
      toast.error(errorMessage(error, L.error));
    } finally {
      setPrinting(false);
    }
  };
  const session = drawer.data?.session ?? null;
  const [lastZ, setLastZ] = useState<Corte | null>(null);
  const [tab, setTab] = useState<'caja' | 'propinas'>('caja');

  return (
    <div className="space-y-6">
      <div>
        <h1 className="flex items-center gap-2 text-2xl font-bold text-slate-900">
          <Vault className="h-6 w-6" aria-hidden />
          {L.title}
        </h1>
        <p className="text-sm text-slate-500">{L.subtitle}</p>
      </div>
      <div className="w-fit max-w-full">
        <Tabs
          label={t.tips.tabsLabel}
          tabs={[
            { value: 'caja', label: t.tips.tabCaja },
            { value: 'propinas', label: t.tips.tabTips },
          ]}
          value={tab}
          onChange={setTab}
        />
      </div>
      {tab === 'propinas' && (
        <TipsPanel
          onSlip={(m, printJobs) => {
            // Printed on the caja printer with the payout; without one, the browser prints the slip.
            if (printJobs > 0) toast.success(P.cajaSent);
            else setPaper(slipToPaper(m));
          }}
        />
      )}
      {tab === 'caja' && drawer.isPending && <Spinner />}
      {tab === 'caja' && drawer.isError && (
        <ErrorState message={errorMessage(drawer.error, L.loadError)} onRetry={() => void drawer.refetch()} />
      )}
      {tab === 'caja' && lastZ && !session && <CorteResult corte={lastZ} onPrint={() => setPaper(corteToPaper(L.corteZ, lastZ))} />}
      {tab === 'caja' && drawer.data && !session && <OpenDrawerCard />}
      {tab === 'caja' && session && (
        <div className="grid gap-6 xl:grid-cols-2">
          <div className="space-y-6">
            <SessionCard session={session} onCorteX={(c) => setPaper(corteToPaper(L.corteX, c))} />
            <MovementsCard session={session} onSlip={(m) => setPaper(slipToPaper(m))} />
          </div>
          <CorteZCard
            session={session}
            onClosed={(c, printed) => {
              setLastZ(c);
              // Printed on the caja printer with the close; otherwise offer the browser print.
              if (printed) toast.success(P.cajaSent);
              else setPaper(corteToPaper(L.corteZ, c));
            }}
          />
        </div>
      )}
      <Dialog
        open={paper !== null}
        onClose={() => setPaper(null)}
        title={paper?.title ?? ''}
        footer={
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={() => setPaper(null)}>
              {L.close}
            </Button>
            <Button onClick={() => void print()} disabled={printing}>
              <Printer className="h-4 w-4" aria-hidden />
              {L.print}
            </Button>
          </div>
        }
      >
        <ScrollArea label={paper?.title ?? ''} className="max-h-[60vh] overflow-y-auto rounded border border-slate-200">
          {paper?.node}
        </ScrollArea>
      </Dialog>
      {paper && <TicketPrintCopy>{paper.node}</TicketPrintCopy>}
    </div>
  );
}

function OpenDrawerCard() {
  const open = useOpenDrawer();
  const form = useZodForm({
    initial: { count: {} as DenominationCount },
    schema: OpenDrawerBodySchema,
    toInput: (v) => v,
    // The answer's promise, not mutate()'s callbacks: the drawer's live event swaps this card for the session's.
    // A refusal shows from the mutation's state below.
    onValid: (body) =>
      void open.mutateAsync(body.count).then(
        () => toast.success(L.opened),
        () => undefined,
      ),
  });
  const error = form.error ?? (open.isError ? errorMessage(open.error, L.error) : null);
  return (
    <Card className="max-w-3xl space-y-4 p-5">
      <div>
        <h2 className="text-lg font-semibold text-slate-900">{L.openTitle}</h2>
        <p className="text-sm text-slate-500">
          {L.noSession} {L.openHint}
        </p>
      </div>
      <DenominationForm value={form.values.count} onChange={(count) => form.set('count', count)} idPrefix="float" />
      {error && <FormError message={error} />}
      <div className="flex justify-end">
        <Button variant="accent" disabled={open.isPending} onClick={form.submit}>
          {L.openAction}
        </Button>
      </div>
    </Card>
  );
}

function SessionCard({ session, onCorteX }: { session: DrawerSessionView; onCorteX: (c: Corte) => void }) {
  const dates = useBusinessDates();
  const [busy, setBusy] = useState(false);
  const corteX = async () => {
    setBusy(true);
    try {
      onCorteX(await fetchCorteX(session.id));
    } catch (error) {
      toast.error(errorMessage(error, L.error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card className="space-y-3 p-5" data-testid="drawer-session">
      <div className="flex items-start justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">{L.session}</h2>
          <p className="text-sm text-slate-500">{L.openedBy(session.openedByName, dates.dateTime(session.openedAt))}</p>
        </div>
        <Button variant="outline" className="shrink-0" onClick={() => void corteX()} disabled={busy}>
          <Receipt className="h-4 w-4" aria-hidden />
          {L.corteX}
        </Button>
      </div>
      <p className="text-sm text-slate-600">
        {L.float}:{' '}
        <strong className="text-xl text-slate-900 tabular-nums" data-testid="drawer-float">
          {money(session.float)}
        </strong>
      </p>
      <p className="text-xs text-slate-500">{L.corteXHint}</p>
    </Card>
  );
}

function MovementsCard({ session, onSlip }: { session: DrawerSessionView; onSlip: (m: DrawerMovementView) => void }) {
  const [asking, setAsking] = useState(false);
  const add = useAddMovement();
  // The PIN is asked once the fields are valid; the contract checks them with a blank one.
  const form = useZodForm({
    initial: { kind: 'retiro' as 'retiro' | 'deposito' | 'gasto', amount: '', reason: '' },
    schema: DrawerMovementBodySchema,
    toInput: (v) => ({ kind: v.kind, amount: pesosToCents(v.amount), reason: v.reason, pin: '' }),
    onValid: () => setAsking(true),
  });
  const { kind, amount, reason } = form.values;
  const cents = pesosToCents(amount);
  const ready = cents !== null && cents > 0 && reason.trim() !== '';
  return (
    <Card className="space-y-4 p-5">
      <h2 className="text-lg font-semibold text-slate-900">{L.movementsTitle}</h2>
      {session.movements.length === 0 ? (
        <p className="text-sm text-slate-500">{L.noMovements}</p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm" data-testid="movement-list">
          {session.movements.map((m) => (
            <li key={m.id} className="flex items-center justify-between gap-2 py-2">
              <span>
                <strong>{L.kinds[m.kind]}</strong> · {m.reason} <span className="text-slate-600">({m.authorizedByName})</span>
              </span>
              <span className="flex items-center gap-2">
                <span className="tabular-nums">{money(m.amount)}</span>
                <Button size="sm" variant="ghost" aria-label={L.printSlip} onClick={() => onSlip(m)}>
                  <Printer className="h-4 w-4" aria-hidden />
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <form
        className="grid gap-3 sm:grid-cols-[10rem_10rem_1fr] sm:items-end"
        onSubmit={(e) => {
          if (ready) form.onSubmit(e);
          else e.preventDefault();
        }}
      >
        <div>
          <Label htmlFor="movement-kind">{L.kind}</Label>
          <select
            id="movement-kind"
            value={kind}
            onChange={(e) => form.set('kind', e.target.value as typeof kind)}
            className="h-11 w-full rounded-lg border border-slate-300 bg-white px-2 text-sm"
          >
            {(['retiro', 'deposito', 'gasto'] as const).map((k) => (
              <option key={k} value={k}>
                {L.kinds[k]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <Label htmlFor="movement-amount">{L.amount}</Label>
          <Input
            id="movement-amount"
            inputMode="decimal"
            value={amount}
            onChange={(e) => form.set('amount', e.target.value)}
            placeholder="0.00"
          />
        </div>
        <div className="sm:col-span-1">
          <Label htmlFor="movement-reason">{L.reason}</Label>
          <Input id="movement-reason" value={reason} maxLength={200} onChange={(e) => form.set('reason', e.target.value)} />
        </div>
        <Button type="submit" variant="primary" className="sm:col-span-3 sm:justify-self-end" disabled={!ready || add.isPending}>
          {L.addMovement}
        </Button>
      </form>
      <PinDialog
        open={asking}
        title={L.movementPin}
        onClose={() => setAsking(false)}
        onSubmit={async (pin) => {
          const { movement, printJobs } = await add.mutateAsync({ kind, amount: cents ?? 0, reason: reason.trim(), pin });
          setAsking(false);
          form.reset({ kind, amount: '', reason: '' });
          // The slip printed on the caja printer with the movement; without one, the browser prints it.
          if (printJobs > 0) toast.success(L.movementSaved, { description: P.cajaSent });
          else {
            toast.success(L.movementSaved);
            onSlip(movement);
          }
        }}
      />
    </Card>
  );
}

function CorteZCard({ session, onClosed }: { session: DrawerSessionView; onClosed: (c: Corte, printed: boolean) => void }) {
  const z = useCorteZ();
  const form = useZodForm({
    initial: { count: {} as DenominationCount, comment: '', cashierPin: '', adminPin: '' },
    schema: CorteZBodySchema,
    toInput: (v) => v,
    // The answer's promise, not mutate()'s callbacks: the drawer's live event can close this card before it.
    // A refusal shows from the mutation's state below.
    onValid: (_body, body) =>
      void z.mutateAsync({ sessionId: session.id, body }).then(
        ({ corte, printJobs }) => {
          toast.success(L.closed);
          onClosed(corte, printJobs > 0);
        },
        () => undefined,
      ),
  });
  const { values, set } = form;
  const { cashierPin, adminPin } = values;
  const error = form.error ?? (z.isError ? errorMessage(z.error, L.error) : null);
  return (
    <Card className="space-y-4 p-5" data-testid="corte-z-form">
      <div>
        <h2 className="text-lg font-semibold text-slate-900">{L.corteZ}</h2>
        <p className="text-sm text-slate-500">{L.corteZHint}</p>
      </div>
      <DenominationForm value={values.count} onChange={(count) => set('count', count)} idPrefix="count" />
      <div>
        <Label htmlFor="corte-comment">{L.comment}</Label>
        <Textarea id="corte-comment" rows={2} maxLength={500} value={values.comment} onChange={(e) => set('comment', e.target.value)} />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <Label htmlFor="cashier-pin">{L.cashierPin}</Label>
          <PinInput id="cashier-pin" value={cashierPin} onValue={(v) => set('cashierPin', v)} />
        </div>
        <div>
          <Label htmlFor="admin-pin">{L.adminPin}</Label>
          <PinInput id="admin-pin" value={adminPin} onValue={(v) => set('adminPin', v)} />
        </div>
      </div>
      {error && <FormError message={error} />}
      <div className="flex justify-end">
        <Button variant="danger" disabled={z.isPending || cashierPin.length < 4 || adminPin.length < 4} onClick={form.submit}>
          {L.corteZAction}
        </Button>
      </div>
    </Card>
  );
}

function CorteResult({ corte, onPrint }: { corte: Corte; onPrint: () => void }) {
  const diff = corte.difference ?? 0;
  const tone = diff === 0 ? 'text-emerald-700' : diff > 0 ? 'text-amber-700' : 'text-rose-700';
  return (
    <Card className="max-w-3xl space-y-2 p-5" data-testid="corte-z-result">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-lg font-semibold text-slate-900">{L.closed}</h2>
        <Button variant="outline" onClick={onPrint}>
          <Printer className="h-4 w-4" aria-hidden />
          {L.corteZ}
        </Button>
      </div>
      <p className="text-sm">
        {L.figures.expected}: <strong className="tabular-nums">{money(corte.figures.expected)}</strong>
      </p>
      <p className="text-sm">
        {L.figures.counted}: <strong className="tabular-nums">{money(corte.counted ?? 0)}</strong>
      </p>
      <p className={`text-lg font-bold ${tone}`} data-testid="corte-difference">
        {L.overShort[overShortLabel(diff)]}: {money(Math.abs(diff))}
      </p>
      {corte.comment && <p className="text-sm text-slate-600">{corte.comment}</p>}
    </Card>
  );
}
