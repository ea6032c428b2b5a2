import { countTotal, DENOMINATION_SLOTS, type DenominationCount } from '@comanda/domain';
import { Input } from '../../components/ui/input.tsx';
import { money } from '../../lib/format.ts';
import { t } from '../../lib/i18n/es-MX.ts';

const label = (value: number) => money(value).replace('.00', '');

/** One field per MXN bill and coin; the total is added up as the cashier types. */
export function DenominationForm({
  value,
  onChange,
  idPrefix,
}: {
  value: DenominationCount;
  onChange: (v: DenominationCount) => void;
  idPrefix: string;
}) {
  const set = (key: string, raw: string) => {
    const n = raw === '' ? 0 : Math.max(0, Math.floor(Number(raw)));
    onChange({ ...value, [key]: Number.isFinite(n) ? n : 0 });
  };
  const group = (kind: 'billete' | 'moneda') => (
    <fieldset className="grid grid-cols-3 gap-2 sm:grid-cols-6">
      <legend className="mb-1 text-sm font-medium text-slate-700">{kind === 'billete' ? t.drawer.bills : t.drawer.coins}</legend>
      {DENOMINATION_SLOTS.filter((s) => s.kind === kind).map((s) => (
        <label key={s.key} className="text-xs text-slate-600" htmlFor={`${idPrefix}-${s.key}`}>
          <span className="mb-1 block font-semibold text-slate-800">{label(s.value)}</span>
          <Input
            id={`${idPrefix}-${s.key}`}
            type="number"
            inputMode="numeric"
            min={0}
            aria-label={t.drawer.pieces(`${kind === 'billete' ? 'billetes' : 'monedas'} de ${label(s.value)}`)}
            value={value[s.key] ? String(value[s.key]) : ''}
            onChange={(e) => set(s.key, e.target.value)}
            className="tabular-nums"
          />
        </label>
      ))}
    </fieldset>
  );
  let total = 0;
  try {
    total = countTotal(value);
  } catch {
    total = 0;
  }
  return (
    <div className="space-y-3">
      {group('billete')}
      {group('moneda')}
      <p className="text-right text-sm text-slate-600">
        {t.drawer.total}:{' '}
        <strong className="text-lg text-slate-900 tabular-nums" data-testid={`${idPrefix}-total`}>
          {money(total)}
        </strong>
      </p>
    </div>
  );
}
