import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Pencil, Plus, Printer as PrinterIcon, Trash2 } from 'lucide-react';
import {
  type Printer,
  type PrinterBody,
  type PrinterRole,
  EmulatorResponseSchema,
  OkSchema,
  PrinterBodySchema,
  PrinterResponseSchema,
  PrintersResponseSchema,
} from '@comanda/contract';
import { Badge, type BadgeTone } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { ErrorState } from '../../components/ui/empty-state.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { ScrollArea } from '../../components/ui/scroll-area.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { del, errorMessage, get, patch, post } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useLiveQueries } from '../../lib/use-live.ts';
import { useBusinessDates } from '../../lib/dates.ts';
import { useZodForm } from '../../lib/use-zod-form.ts';

const PRINTERS_KEY = ['printers', 'list'] as const;
const EMULATOR_KEY = ['printers', 'emulator'] as const;
const STATUS_TONE: Record<Printer['status'], BadgeTone> = { listo: 'success', sin_conexion: 'warning', error: 'danger' };
/** What the address field accepts: a host, and a port after a colon. */
const ADDRESS = /^\s*([^\s:]+)(?::(\d{1,5}))?\s*$/;
const SELECT =
  'h-11 w-full rounded-lg border border-slate-300 bg-white px-3 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30';

/** Configuración › Impresoras: the network printers, their live status, a test page, and the emulators' paper. */
export default function PrintersTab() {
  const dates = useBusinessDates();
  useLiveQueries(['printers'], [PRINTERS_KEY]);
  const printers = useQuery({
    queryKey: PRINTERS_KEY,
    queryFn: async () => (await get(PrintersResponseSchema, '/api/printers')).printers,
    refetchInterval: 5000,
  });
  const [editing, setEditing] = useState<Printer | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Printer | null>(null);
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: ['printers'] });
  const test = useMutation({
    mutationFn: (id: string) => post(OkSchema, `/api/printers/${id}/test`),
    onSuccess: () => {
      toast.success(t.printers.testSent);
      void refresh();
    },
    onError: (e) => toast.error(errorMessage(e, t.printers.testError)),
  });
  const remove = useMutation({
    mutationFn: (id: string) => del(OkSchema, `/api/printers/${id}`),
    onSuccess: () => {
      toast.success(t.printers.deleted);
      setDeleting(null);
      void refresh();
    },
    onError: (e) => toast.error(errorMessage(e, t.printers.saveError)),
  });
  if (printers.isPending) return <Spinner />;
  if (printers.isError) return <ErrorState message={t.printers.loadError} onRetry={() => void printers.refetch()} />;
  const list = printers.data;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <p className="max-w-3xl text-sm text-slate-600">{t.printers.intro}</p>
        <Button onClick={() => setEditing('new')}>
          <Plus className="h-4 w-4" aria-hidden />
          {t.printers.add}
        </Button>
      </div>
      {list.length === 0 && <p className="rounded-lg bg-slate-50 p-4 text-sm text-slate-600">{t.printers.empty}</p>}
      <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3" aria-label={t.printers.tab}>
        {list.map((p) => (
          <li key={p.id}>
            <Card className="flex h-full flex-col gap-3 p-4" data-testid={`printer-${p.role}`}>
              <div className="flex items-start justify-between gap-2">
                <div>
                  <h3 className="flex items-center gap-2 font-semibold">
                    <PrinterIcon className="h-4 w-4 text-slate-500" aria-hidden />
                    {p.name}
                  </h3>
                  <p className="font-mono text-xs text-slate-500">
                    {p.host}:{p.port}
                  </p>
                </div>
                <Badge tone={p.enabled ? STATUS_TONE[p.status] : 'neutral'} data-testid="printer-status">
                  {p.enabled ? t.printers.status[p.status] : t.printers.disabled}
                </Badge>
              </div>
              <div className="flex flex-wrap gap-1">
                <Badge tone="info">{t.printers.roles[p.role]}</Badge>
                <Badge>{t.printers.widths[p.width]}</Badge>
                {p.emulated && <Badge tone="violet">{t.printers.emulated}</Badge>}
                {p.pendingJobs > 0 && <Badge tone="warning">{t.printers.pending(p.pendingJobs)}</Badge>}
              </div>
              {p.status !== 'listo' && p.lastError && (
                <p className="text-xs text-rose-700">
                  {t.printers.lastError(p.lastError, dates.timeWithSeconds(p.lastErrorAt ?? Date.now()))}
                </p>
              )}
              <div className="mt-auto flex flex-wrap gap-2">
                <Button size="sm" variant="outline" onClick={() => test.mutate(p.id)} disabled={test.isPending || !p.enabled}>
                  {t.printers.test}
                </Button>
                <Button size="sm" variant="ghost" onClick={() => setEditing(p)}>
                  <Pencil className="h-4 w-4" aria-hidden />
                  {t.printers.edit}
                </Button>
                <Button size="sm" variant="ghost" onClick={() => setDeleting(p)} aria-label={`${t.printers.delete} ${p.name}`}>
                  <Trash2 className="h-4 w-4" aria-hidden />
                </Button>
              </div>
            </Card>
          </li>
        ))}
      </ul>
      {list.some((p) => p.emulated) && <SimulatorSection />}
      {editing && <PrinterDialog printer={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={refresh} />}
      <ConfirmDialog
        open={deleting !== null}
        title={t.printers.delete}
        message={deleting ? t.printers.deleteConfirm(deleting.name) : ''}
        confirmLabel={t.printers.delete}
        danger
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}

function PrinterDialog({ printer, onClose, onSaved }: { printer: Printer | null; onClose: () => void; onSaved: () => void }) {
  const save = useMutation({
    mutationFn: (body: PrinterBody) =>
      printer ? patch(PrinterResponseSchema, `/api/printers/${printer.id}`, body) : post(PrinterResponseSchema, '/api/printers', body),
    onSuccess: () => {
      toast.success(t.printers.saved);
      onSaved();
      onClose();
    },
    onError: (e) => form.setError(errorMessage(e, t.printers.saveError)),
  });
  const form = useZodForm({
    initial: {
      name: printer?.name ?? '',
      address: printer ? `${printer.host}:${printer.port}` : '',
      role: printer?.role ?? ('cocina' as PrinterRole),
      width: printer?.width ?? (80 as 80 | 58),
      enabled: printer?.enabled ?? true,
    },
    schema: PrinterBodySchema,
    // "host" or "host:port" (9100 when absent); anything else is said as the field's own label, as before.
    before: ({ address }) => (ADDRESS.test(address) ? null : t.printers.host),
    toInput: ({ address, ...rest }) => {
      const [, host, port] = ADDRESS.exec(address) ?? [];
      return { ...rest, host, port: port ? Number(port) : 9100 };
    },
    onValid: (body) => save.mutate(body),
  });
  const { name, address, role, width, enabled } = form.values;
  return (
    <Dialog open onClose={onClose} title={printer ? t.printers.editTitle : t.printers.addTitle}>
      <form onSubmit={form.onSubmit} className="space-y-3">
        <div>
          <Label htmlFor="printer-name">{t.printers.name}</Label>
          <Input id="printer-name" required maxLength={60} value={name} onChange={(e) => form.set('name', e.target.value)} />
        </div>
        <div>
          <Label htmlFor="printer-address">{t.printers.host}</Label>
          <Input
            id="printer-address"
            required
            placeholder="192.168.1.50:9100"
            className="font-mono"
            value={address}
            onChange={(e) => form.set('address', e.target.value)}
          />
        </div>
        <div className="grid grid-cols-2 gap-3">
          <div>
            <Label htmlFor="printer-role">{t.printers.role}</Label>
            <select id="printer-role" className={SELECT} value={role} onChange={(e) => form.set('role', e.target.value as PrinterRole)}>
              {(['cocina', 'barra', 'caja'] as const).map((r) => (
                <option key={r} value={r}>
                  {t.printers.roles[r]}
                </option>
              ))}
            </select>
          </div>
          <div>
            <Label htmlFor="printer-width">{t.printers.width}</Label>
            <select
              id="printer-width"
              className={SELECT}
              value={width}
              onChange={(e) => form.set('width', Number(e.target.value) === 58 ? 58 : 80)}
            >
              <option value={80}>{t.printers.widths[80]}</option>
              <option value={58}>{t.printers.widths[58]}</option>
            </select>
          </div>
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={enabled} onChange={(e) => form.set('enabled', e.target.checked)} className="h-4 w-4" />
          {t.printers.enabled}
        </label>
        <FormError message={form.error} />
        <div className="flex justify-end gap-2 pt-2">
          <Button variant="ghost" onClick={onClose}>
            {t.app.cancel}
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {t.printers.save}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function SimulatorSection() {
  const emulators = useQuery({
    queryKey: EMULATOR_KEY,
    queryFn: async () => (await get(EmulatorResponseSchema, '/api/printers/emulator')).emulators,
    refetchInterval: 1500,
  });
  const qc = useQueryClient();
  const steer = useMutation({
    mutationFn: ({ id, state }: { id: string; state: 'online' | 'paper-out' | 'off' }) =>
      post(OkSchema, `/api/printers/emulator/${id}`, { state }),
    onSettled: () => qc.invalidateQueries({ queryKey: ['printers'] }),
    onError: (e) => toast.error(errorMessage(e, t.printers.saveError)),
  });
  return (
    <section className="space-y-3" aria-label={t.printers.simulatorTitle}>
      <h2 className="text-lg font-semibold">{t.printers.simulatorTitle}</h2>
      <p className="text-sm text-slate-600">{t.printers.simulatorIntro}</p>
      <div className="grid gap-4 lg:grid-cols-3">
        {(emulators.data ?? []).map((e) => (
          <Card key={e.printerId} className="p-3" data-testid={`emulator-${e.role}`}>
            <div className="mb-2 flex items-center justify-between gap-2">
              <h3 className="font-semibold">{e.name}</h3>
              <select
                aria-label={t.printers.simulatorState(e.name)}
                className="h-11 rounded-lg border border-slate-300 bg-white px-2 text-sm"
                value={e.state === 'offline' ? 'online' : e.state}
                disabled={steer.isPending}
                onChange={(event) => steer.mutate({ id: e.printerId, state: event.target.value as 'online' | 'paper-out' | 'off' })}
              >
                {(['online', 'paper-out', 'off'] as const).map((state) => (
                  <option key={state} value={state}>
                    {t.printers.simulatorStates[state]}
                  </option>
                ))}
              </select>
            </div>
            {e.tickets.length === 0 && <p className="text-sm text-slate-500">{t.printers.simulatorEmpty}</p>}
            <ScrollArea label={t.printers.simulatorPaper(e.name)} className="max-h-[32rem] overflow-y-auto rounded">
              <ol className="space-y-3">
                {e.tickets.map((ticket) => (
                  <li key={ticket.n} className="rounded border border-dashed border-slate-300 bg-white p-2" data-testid="emulator-ticket">
                    {!ticket.complete && <p className="mb-1 text-xs font-semibold text-rose-700">{t.printers.incomplete}</p>}
                    <PaperText text={ticket.text} />
                  </li>
                ))}
              </ol>
            </ScrollArea>
          </Card>
        ))}
      </div>
    </section>
  );
}

/** The decoded ticket as on paper: "## " lines printed double size, [[ ]] printed white on black. */
function PaperText({ text }: { text: string }) {
  return (
    <div className="overflow-x-auto font-mono text-[11px] leading-tight whitespace-pre text-slate-900">
      {text.split('\n').map((line, i) => {
        const big = line.startsWith('## ');
        const body = big ? line.slice(3) : line;
        const parts = body.split(/(\[\[.*?\]\])/g).filter(Boolean);
        return (
          <div key={i} className={big ? 'text-base leading-snug font-bold' : undefined}>
            {parts.length === 0
              ? '\u00a0'
              : parts.map((part, j) =>
                  part.startsWith('[[') ? (
                    <span key={j} className="bg-slate-900 text-white">
                      {part.slice(2, -2)}
                    </span>
                  ) : (
                    <span key={j}>{part}</span>
                  ),
                )}
          </div>
        );
      })}
    </div>
  );
}
