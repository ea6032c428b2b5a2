import { useState } from 'react';
import { CheckCircle2, TriangleAlert } from 'lucide-react';
import type { CardTerminal } from '@comanda/contract';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Label } from '../../components/ui/input.tsx';
import { Waiting } from './terminal-tab-parts.tsx';
import { errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useStartTestCharge, useTestCharge } from './terminal-tab-api.ts';

type TestState = 'idle' | 'testing' | 'success' | 'error';

/** SPEC §4: idle, testing, then success or error; Resetear returns to idle. */
export function TestChargeCard({ terminals }: { terminals: CardTerminal[] }) {
  const enabled = terminals.filter((x) => x.enabled);
  const [picked, setPicked] = useState<string>('');
  const [testId, setTestId] = useState<string | null>(null);
  const [startError, setStartError] = useState<string | null>(null);
  const start = useStartTestCharge();
  const test = useTestCharge(testId);
  const terminalId = enabled.some((x) => x.id === picked) ? picked : (enabled[0]?.id ?? '');

  const state: TestState = startError ? 'error' : start.isPending ? 'testing' : testId ? (test.data?.state ?? 'testing') : 'idle';
  const message = startError ?? test.data?.message ?? t.settings.testProcessError;

  const run = () => {
    setStartError(null);
    start.mutate(terminalId, {
      onSuccess: (charge) => setTestId(charge.id),
      onError: (error) => setStartError(errorMessage(error, t.settings.testError)),
    });
  };
  const reset = () => {
    setTestId(null);
    setStartError(null);
  };

  return (
    <Card className="space-y-3 p-4" data-testid="test-charge" data-state={state}>
      <div>
        <h2 className="font-semibold">{t.terminalTab.testTitle}</h2>
        <p className="text-sm text-slate-600">{t.terminalTab.testHint}</p>
      </div>
      {state === 'idle' &&
        (enabled.length === 0 ? (
          <p className="text-sm text-slate-500">{t.terminalTab.noTerminalForTest}</p>
        ) : (
          <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
            <div className="flex-1">
              <Label htmlFor="test-terminal">{t.terminalTab.testTerminal}</Label>
              <select
                id="test-terminal"
                value={terminalId}
                onChange={(e) => setPicked(e.target.value)}
                className="h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm"
              >
                {enabled.map((x) => (
                  <option key={x.id} value={x.id}>
                    {x.name}
                  </option>
                ))}
              </select>
            </div>
            <Button variant="accent" onClick={run}>
              {t.terminalTab.testSend}
            </Button>
          </div>
        ))}
      {state === 'testing' && <Waiting label={t.terminalTab.testing} />}
      {state === 'success' && (
        <div
          role="status"
          className="flex items-start gap-2 rounded-lg border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-900"
        >
          <CheckCircle2 className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
          <div>
            <p className="font-semibold">{t.settings.testConfigured}</p>
            <p>{test.data?.message ?? t.settings.testSuccess}</p>
          </div>
        </div>
      )}
      {state === 'error' && (
        <div role="alert" className="flex items-start gap-2 rounded-lg border border-rose-300 bg-rose-50 p-3 text-sm text-rose-900">
          <TriangleAlert className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
          <div>
            <p className="font-semibold">{t.settings.testError}</p>
            <p>{message}</p>
            <p className="mt-1 text-rose-800/80">{t.terminalTab.testConfigHint}</p>
          </div>
        </div>
      )}
      {(state === 'success' || state === 'error') && (
        <Button variant="outline" size="sm" onClick={reset}>
          {t.settings.testReset}
        </Button>
      )}
    </Card>
  );
}
