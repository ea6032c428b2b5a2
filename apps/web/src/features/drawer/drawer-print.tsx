import type { Corte, DrawerMovementView } from '@comanda/contract';
import { overShortLabel } from '@comanda/domain';
import { money } from '../../lib/format.ts';
import { TaxTotals } from '../../components/ticket/tax-summary.tsx';
import { t } from '../../lib/i18n/es-MX.ts';
import { useGeneralConfig } from '../../lib/config.ts';
import { useBusinessDates } from '../../lib/dates.ts';

const L = t.drawer;

function Row({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className={strong ? 'flex justify-between gap-2 text-[14px] font-bold' : 'flex justify-between gap-2'}>
      <span>{label}</span>
      <span className="tabular-nums">{value}</span>
    </div>
  );
}
const minus = (c: number) => (c === 0 ? money(0) : `-${money(c)}`);
const Rule = () => <div className="my-2 border-t border-dashed border-black" aria-hidden />;

function Paper({ title, children, testId }: { title: string; children: React.ReactNode; testId: string }) {
  const config = useGeneralConfig();
  return (
    <article
      className="mx-auto w-full max-w-[80mm] bg-white px-[4mm] py-[5mm] font-mono text-[12px] leading-snug text-black"
      data-testid={testId}
    >
      <header className="text-center">
        <p className="text-[15px] font-bold uppercase">{config.data?.name || t.app.fallbackTitle}</p>
        <p className="mt-1 font-bold tracking-widest">{title}</p>
      </header>
      <Rule />
      {children}
    </article>
  );
}

const Signature = ({ label, name }: { label: string; name: string | null }) => (
  <div className="mt-6 text-center">
    <div className="mx-6 border-t border-black" />
    <p>
      {label}: {name ?? ''}
    </p>
  </div>
);

/** Slip of a withdrawal, deposit or paid-out, 80 mm. */
export function MovementSlip({ movement }: { movement: DrawerMovementView }) {
  const dates = useBusinessDates();
  const kind = L.kinds[movement.kind] ?? movement.kind;
  return (
    <Paper title={L.slipTitle(kind)} testId="movement-slip">
      <Row label={dates.dateTime(movement.createdAt)} value="" />
      <Row label={L.amount} value={money(movement.amount)} strong />
      <p className="mt-1 break-words">
        {L.reason}: {movement.reason}
      </p>
      <Rule />
      {movement.recipientName ? (
        <Row label={t.tips.received} value={movement.recipientName} />
      ) : (
        <Row label={L.authorizedBy} value={movement.authorizedByName} />
      )}
      <Row label={L.registeredBy} value={movement.createdByName} />
      <Signature label={L.signature} name={movement.recipientName ?? movement.authorizedByName} />
    </Paper>
  );
}

/** Corte X (open session, figures so far) or corte Z (closed: counted, expected, difference, signatures), 80 mm. */
export function CorteSlip({ corte }: { corte: Corte }) {
  const dates = useBusinessDates();
  const f = corte.figures;
  const z = corte.closedAt !== null;
  const F = L.figures;
  return (
    <Paper title={z ? L.corteZ.toUpperCase() : L.corteX.toUpperCase()} testId={z ? 'corte-z' : 'corte-x'}>
      <Row label={L.openedAt} value={dates.dateTime(corte.session.openedAt)} />
      <Row label={z ? L.closedAt : L.printedAt} value={dates.dateTime(corte.at)} />
      <Rule />
      <Row label={F.float} value={money(f.float)} />
      <Row label={F.cashReceived} value={money(f.cashReceived)} />
      <Row label={F.change} value={minus(f.change)} />
      <Row label={F.deposits} value={money(f.deposits)} />
      <Row label={F.withdrawals} value={minus(f.withdrawals)} />
      <Row label={F.paidOuts} value={minus(f.paidOuts)} />
      <Row label={t.tips.tipPayouts} value={minus(f.tipPayouts)} />
      <Rule />
      <Row label={F.expected} value={money(f.expected)} strong />
      {z && corte.counted !== null && corte.difference !== null && (
        <>
          <Row label={F.counted} value={money(corte.counted)} strong />
          <Row
            label={`${F.difference} (${L.overShort[overShortLabel(corte.difference)]})`}
            value={`${corte.difference < 0 ? '-' : ''}${money(Math.abs(corte.difference))}`}
            strong
          />
          {corte.comment && <p className="mt-1 break-words">{corte.comment}</p>}
        </>
      )}
      <Rule />
      <Row label={F.cashSales} value={money(f.cashSales)} />
      <Row label={F.cashCount} value={String(f.cashCount)} />
      <Row label={F.card} value={money(f.card)} />
      <Row label={F.transfer} value={money(f.transfer)} />
      {f.taxes && (
        <>
          <Rule />
          <TaxTotals taxes={f.taxes} Row={Row} />
        </>
      )}
      {corte.session.movements.length > 0 && (
        <>
          <Rule />
          {corte.session.movements.map((m) => (
            <Row key={m.id} label={`${L.kinds[m.kind]}: ${m.reason}`} value={money(m.amount)} />
          ))}
        </>
      )}
      {z && (
        <>
          <Signature label={L.cashier} name={corte.cashierName} />
          <Signature label={L.admin} name={corte.adminName} />
        </>
      )}
    </Paper>
  );
}
