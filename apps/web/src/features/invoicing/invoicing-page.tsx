import { useState } from 'react';
import { toast } from 'sonner';
import type { InvoiceView, ReceiptView } from '@comanda/contract';
import {
  CANCELLATION_MOTIVES,
  GLOBAL_PERIOD_LABELS,
  INVOICE_STATE_LABELS,
  RECEIPT_STATE_LABELS,
  type CancellationMotive,
} from '@comanda/domain';
import { Badge, type BadgeTone } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { ErrorState } from '../../components/ui/empty-state.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Tabs } from '../../components/ui/tabs.tsx';
import { errorMessage } from '../../lib/api.ts';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useGlobalNow, useInvoiceAction, useInvoicingOverview, useSyncReceipt } from '../../lib/invoicing.ts';
import { INVOICE_TONES, InvoiceFiles } from '../../components/ticket/ticket-invoice-section.tsx';
import { CancelInvoiceDialog } from './cancel-invoice-dialog.tsx';

type Tab = 'receipts' | 'invoices' | 'globals';

const RECEIPT_TONES: Record<ReceiptView['state'], BadgeTone> = {
  pendiente: 'warning',
  emitido: 'info',
  facturado: 'success',
  en_global: 'violet',
  cancelado: 'neutral',
};

const when = (ms: number | null) =>
  ms === null ? '' : new Date(ms).toLocaleString('es-MX', { dateStyle: 'short', timeStyle: 'short', timeZone: 'America/Mexico_City' });

/** Facturación: every ticket's receipt, the customers' invoices and the facturas globales, with their state and errors. */
export function InvoicingPage() {
  const overview = useInvoicingOverview();
  const [tab, setTab] = useState<Tab>('invoices');
  const [cancelling, setCancelling] = useState<InvoiceView | null>(null);
  const globalNow = useGlobalNow();
  if (overview.isPending) return <Spinner />;
  if (overview.isError) return <ErrorState message={t.invoicing.loadError} onRetry={() => void overview.refetch()} />;
  const { receipts, invoices, mode, periodicity } = overview.data;
  const customers = invoices.filter((i) => i.kind === 'cliente');
  const globals = invoices.filter((i) => i.kind === 'global');
  return (
    <div className="mx-auto max-w-5xl space-y-4 p-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">{t.invoicing.title}</h1>
          <p className="text-sm text-slate-600">
            {t.invoicing.period(GLOBAL_PERIOD_LABELS[periodicity])}
            {mode === 'demo' && ` · ${t.invoicing.demo}`}
            {mode === 'off' && ` · ${t.invoicing.off}`}
          </p>
        </div>
        <Button
          variant="accent"
          disabled={globalNow.isPending || mode === 'off'}
          onClick={() =>
            globalNow.mutate(undefined, {
              onSuccess: (r) => toast.success(t.invoicing.globalDone(r.invoices.filter((i) => i.state === 'timbrada').length)),
              onError: (e) => toast.error(errorMessage(e, t.invoicing.loadError)),
            })
          }
        >
          {t.invoicing.globalNow}
        </Button>
      </div>
      <Tabs<Tab>
        label={t.invoicing.title}
        value={tab}
        onChange={setTab}
        tabs={[
          { value: 'invoices', label: t.invoicing.invoices },
          { value: 'globals', label: t.invoicing.globals },
          { value: 'receipts', label: t.invoicing.receipts },
        ]}
      />
      {tab === 'receipts' && <ReceiptList receipts={receipts} />}
      {tab === 'invoices' && <InvoiceList invoices={customers} empty={t.invoicing.noInvoices} onCancel={setCancelling} />}
      {tab === 'globals' && <InvoiceList invoices={globals} empty={t.invoicing.noGlobals} onCancel={setCancelling} />}
      <CancelInvoiceDialog invoice={cancelling} onClose={() => setCancelling(null)} />
    </div>
  );
}

function ReceiptList({ receipts }: { receipts: ReceiptView[] }) {
  const sync = useSyncReceipt();
  if (!receipts.length) return <p className="text-sm text-slate-600">{t.invoicing.noReceipts}</p>;
  return (
    <div className="space-y-2">
      {receipts.map((r) => (
        <Card key={r.orderId} data-receipt={r.orderId} className="flex flex-wrap items-center gap-3 p-3 text-sm">
          <span className="font-semibold text-slate-900">{t.invoicing.ticket(r.folio)}</span>
          <Badge tone={RECEIPT_TONES[r.state]}>{RECEIPT_STATE_LABELS[r.state]}</Badge>
          <span className="tabular-nums text-slate-900">{money(r.total)}</span>
          <span className="text-slate-600">{when(r.paidAt)}</span>
          {r.receiptKey && <span className="font-mono text-xs text-slate-600">{r.receiptKey}</span>}
          {r.lastError && r.state === 'pendiente' && <span className="text-rose-700">{r.lastError}</span>}
          {(r.state === 'pendiente' || r.state === 'emitido') && (
            <Button size="sm" variant="outline" className="ml-auto" disabled={sync.isPending} onClick={() => sync.mutate(r.orderId)}>
              {r.state === 'pendiente' ? t.invoicing.retry : t.invoicing.refresh}
            </Button>
          )}
        </Card>
      ))}
    </div>
  );
}

function InvoiceList({ invoices, empty, onCancel }: { invoices: InvoiceView[]; empty: string; onCancel: (i: InvoiceView) => void }) {
  const action = useInvoiceAction();
  if (!invoices.length) return <p className="text-sm text-slate-600">{empty}</p>;
  const run = (id: string, what: 'retry' | 'refresh') =>
    action.mutate({ id, action: what }, { onError: (e) => toast.error(errorMessage(e, t.invoicing.loadError)) });
  return (
    <div className="space-y-2">
      {invoices.map((i) => (
        <Card key={i.id} className="space-y-2 p-3 text-sm" data-invoice={i.id}>
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone={INVOICE_TONES[i.state]}>{INVOICE_STATE_LABELS[i.state]}</Badge>
            {i.kind === 'global' ? (
              <span className="font-semibold text-slate-900">
                {i.periodKey?.split('#')[0]?.split(':')[1]} · {i.months}/{i.year}
                {i.receipts !== null && ` · ${t.invoicing.receiptsIn(i.receipts)}`}
              </span>
            ) : (
              <span className="font-semibold text-slate-900">
                {i.folio !== null && `${t.invoicing.ticket(i.folio)} · `}
                {i.legalName} ({i.rfc})
              </span>
            )}
            {i.origin === 'autofactura' && <Badge tone="info">{t.invoicing.selfInvoice}</Badge>}
            {i.total !== null && <span className="tabular-nums text-slate-900">{money(i.total)}</span>}
            <span className="text-slate-600">{when(i.stampedAt ?? i.createdAt)}</span>
          </div>
          {i.uuid && <p className="break-all font-mono text-xs text-slate-700">{i.uuid}</p>}
          {i.cancelMotive && (
            <p className="text-slate-700">
              {t.invoicing.motive} {i.cancelMotive} · {CANCELLATION_MOTIVES[i.cancelMotive as CancellationMotive]}
              {i.cancelSubstitution && ` · ${i.cancelSubstitution}`}
              {i.cancellationStatus && ` · ${i.cancellationStatus === 'pending' ? t.invoicing.cancelPending : t.invoicing.cancelled}`}
            </p>
          )}
          {i.lastError && i.state !== 'timbrada' && (
            <p className="text-rose-700">
              {i.lastError} · {t.invoicing.attempts(i.attempts)}
            </p>
          )}
          {i.emailError && <p className="text-rose-700">{i.emailError}</p>}
          <div className="flex flex-wrap gap-2">
            <InvoiceFiles invoice={i} />
            {(i.state === 'error' || i.state === 'solicitando') && (
              <Button size="sm" variant="outline" disabled={action.isPending} onClick={() => run(i.id, 'retry')}>
                {t.invoicing.retry}
              </Button>
            )}
            {i.state === 'cancelacion_pendiente' && (
              <Button size="sm" variant="outline" disabled={action.isPending} onClick={() => run(i.id, 'refresh')}>
                {t.invoicing.refresh}
              </Button>
            )}
            {i.state === 'timbrada' && (
              <Button size="sm" variant="outline" onClick={() => onCancel(i)}>
                {t.invoicing.cancel}
              </Button>
            )}
          </div>
        </Card>
      ))}
    </div>
  );
}
