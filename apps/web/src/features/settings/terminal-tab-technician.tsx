import { ChevronDown, Wrench } from 'lucide-react';
import { Card } from '../../components/ui/card.tsx';
import { t } from '../../lib/i18n/es-MX.ts';
import { useTerminalStatus } from './terminal-tab-api.ts';
import { Row } from './terminal-tab-parts.tsx';

const T = t.floorAndPrint.terminal;

/** What the owner does, in plain words; the server side is the technician's (below). */
export function OwnerSetupCard() {
  return (
    <Card className="space-y-3 p-4">
      <h2 className="font-semibold">{t.terminalTab.setupTitle}</h2>
      <ol className="list-decimal space-y-1.5 pl-5 text-sm text-slate-700">
        {T.ownerSteps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
    </Card>
  );
}

/**
 * "Para el técnico": the connection's internals (API, token, the demo simulator) and the server
 * set-up steps (MP_ACCESS_TOKEN in .env, webhooks), folded away by default.
 */
export function TechnicianDetails() {
  const status = useTerminalStatus();
  const s = status.data;
  return (
    <Card className="p-0" data-testid="terminal-technical">
      <details className="group">
        <summary className="flex min-h-11 cursor-pointer list-none items-center gap-2 rounded-xl px-4 py-3 font-semibold text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 [&::-webkit-details-marker]:hidden">
          <Wrench className="h-4 w-4 text-slate-600" aria-hidden />
          {T.technicianTitle}
          <ChevronDown className="ml-auto h-4 w-4 text-slate-600 transition-transform group-open:rotate-180" aria-hidden />
        </summary>
        <div className="space-y-3 border-t border-slate-200 px-4 pt-3 pb-4 text-sm text-slate-700">
          <p>{T.technicianIntro}</p>
          {s && (
            <dl className="grid grid-cols-1 gap-x-6 gap-y-2 sm:grid-cols-2">
              <Row term={t.terminalTab.api} value={t.terminalTab.apiNames[s.api]} />
              <Row term={t.terminalTab.token} value={s.token ?? t.terminalTab.tokenHidden} mono />
            </dl>
          )}
          {s?.mode === 'demo' && <p className="rounded-lg bg-sky-50 p-3 text-sky-900">{t.terminalTab.demoHint}</p>}
          <ol className="list-decimal space-y-1.5 pl-5">
            {t.terminalTab.setup.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
          <p className="text-xs text-slate-600">{t.terminalTab.setupApiHint}</p>
        </div>
      </details>
    </Card>
  );
}
