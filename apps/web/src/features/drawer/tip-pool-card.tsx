import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import type { TipsResponse } from '@comanda/contract';
import { POOL_ROLES, type PoolRole } from '@comanda/domain';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useSaveTipPool } from './tips-api.ts';

const L = t.tips;

/** The admin's optional pooling rules: a percent per role, summing to 100 (the server checks it too). */
export function TipPoolCard({ pool }: { pool: TipsResponse['pool'] | null }) {
  const [enabled, setEnabled] = useState(false);
  const [percents, setPercents] = useState<Record<PoolRole, string>>({ waiter: '100', kitchen: '0', barra: '0' });
  const save = useSaveTipPool();
  useEffect(() => {
    if (!pool) return;
    setEnabled(pool.enabled);
    setPercents({ waiter: String(pool.percents.waiter), kitchen: String(pool.percents.kitchen), barra: String(pool.percents.barra) });
  }, [pool]);
  const values = POOL_ROLES.map((r) => Number(percents[r]));
  const sum = values.reduce((a, n) => a + (Number.isInteger(n) ? n : NaN), 0);
  const valid = values.every((n) => Number.isInteger(n) && n >= 0 && n <= 100) && sum === 100;
  const submit = () =>
    save.mutate(
      { enabled, percents: { waiter: values[0]!, kitchen: values[1]!, barra: values[2]! } },
      { onSuccess: () => toast.success(L.poolSaved) },
    );
  return (
    <Card className="space-y-4 p-5" data-testid="tip-pool">
      <div className="max-w-3xl">
        <h2 className="text-lg font-semibold text-slate-900">{L.poolTitle}</h2>
        <p className="text-sm text-slate-500">{L.poolHint}</p>
      </div>
      <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} className="h-4 w-4" />
        {L.poolEnabled}
      </label>
      <div className="grid max-w-xl gap-3 sm:grid-cols-3">
        {POOL_ROLES.map((role) => (
          <div key={role}>
            <Label htmlFor={`pool-${role}`}>{L.poolPercent(L.roles[role] ?? role)}</Label>
            <Input
              id={`pool-${role}`}
              inputMode="numeric"
              value={percents[role]}
              onChange={(e) => setPercents({ ...percents, [role]: e.target.value.replace(/\D/g, '').slice(0, 3) })}
            />
          </div>
        ))}
      </div>
      {!valid && <p className="text-sm text-rose-700">{L.poolSum(Number.isNaN(sum) ? 0 : sum)}</p>}
      {save.isError && <FormError message={errorMessage(save.error, L.poolError)} />}
      <div className="flex justify-end">
        <Button variant="primary" disabled={!valid || save.isPending} onClick={submit}>
          {L.poolSave}
        </Button>
      </div>
    </Card>
  );
}
