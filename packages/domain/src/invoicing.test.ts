import { describe, expect, it } from 'vitest';
import { cancellationProblem, globalPeriodOf, hasRegimenSocietario, INVOICE_MESSAGES, receptorProblems, usosFor } from './invoicing.ts';

const TZ = 'America/Mexico_City';
const at = (iso: string) => Date.parse(iso);

describe('the receptor of a customer invoice', () => {
  const ok = { rfc: 'EKU9003173C9', legalName: 'ESCUELA KEMPER URGATE', zip: '42501', taxSystem: '601', use: 'G03', email: '' };
  it('takes a persona moral with a régimen and uso of hers', () => {
    expect(receptorProblems(ok)).toEqual({});
  });
  it('refuses a régimen of the other kind of person and a uso the régimen may not have', () => {
    expect(receptorProblems({ ...ok, taxSystem: '605' }).taxSystem).toBe(INVOICE_MESSAGES.regimenKind('moral'));
    expect(receptorProblems({ ...ok, use: 'D01' }).use).toBe(INVOICE_MESSAGES.usoRegimen('D01', '601'));
    expect(receptorProblems({ ...ok, rfc: 'COSC8001137NA', taxSystem: '605', use: 'D01' })).toEqual({});
  });
  it('refuses the name with its régimen societario, the generic RFC and a short código postal', () => {
    for (const name of [
      'ESCUELA KEMPER URGATE SA DE CV',
      'ESCUELA KEMPER URGATE, S.A. DE C.V.',
      'ACME S DE RL DE CV',
      'ACME SAPI DE CV',
      'ACME SC',
    ])
      expect(hasRegimenSocietario(name), name).toBe(true);
    expect(hasRegimenSocietario('SASTRERIA DEL CENTRO')).toBe(false);
    expect(receptorProblems({ ...ok, rfc: 'XAXX010101000' }).rfc).toBe(INVOICE_MESSAGES.rfcGeneric);
    expect(receptorProblems({ ...ok, zip: '4250' }).zip).toBe(INVOICE_MESSAGES.zip);
  });
  it('offers only the usos of a régimen', () => {
    expect(usosFor('605').map((u) => u.code)).toContain('D01');
    expect(usosFor('605').map((u) => u.code)).not.toContain('G03');
    expect(usosFor('616').map((u) => u.code)).toEqual(['S01', 'CP01']);
  });
});

describe('the factura global’s periods', () => {
  it('a day is the local calendar day', () => {
    const p = globalPeriodOf('day', at('2025-03-15T05:30:00Z'), TZ); // 23:30 on the 14th in Mexico City
    expect(p).toMatchObject({ key: 'day:2025-03-14', months: '03', year: 2025, firstDate: '2025-03-14', lastDate: '2025-03-14' });
    expect(p.from).toBe(at('2025-03-14T06:00:00Z'));
    expect(p.to).toBe(at('2025-03-15T06:00:00Z'));
  });
  it('a week runs Monday to Sunday and is cut at the month’s end', () => {
    expect(globalPeriodOf('week', at('2025-03-13T18:00:00Z'), TZ)).toMatchObject({ key: 'week:2025-03-10', lastDate: '2025-03-16' });
    const end = globalPeriodOf('week', at('2025-03-31T18:00:00Z'), TZ);
    expect(end).toMatchObject({ key: 'week:2025-03-31', firstDate: '2025-03-31', lastDate: '2025-03-31', months: '03' });
    expect(globalPeriodOf('week', at('2025-04-02T18:00:00Z'), TZ)).toMatchObject({
      firstDate: '2025-04-01',
      lastDate: '2025-04-06',
      months: '04',
    });
  });
  it('a month is its calendar month, December into the next year', () => {
    const p = globalPeriodOf('month', at('2025-12-31T20:00:00Z'), TZ);
    expect(p).toMatchObject({ key: 'month:2025-12', months: '12', year: 2025, lastDate: '2025-12-31' });
    expect(p.to).toBe(at('2026-01-01T06:00:00Z'));
  });
});

describe('a cancellation', () => {
  it('needs a motive, and for 01 the replacing invoice’s UUID', () => {
    expect(cancellationProblem('05', null)).toBe(INVOICE_MESSAGES.motive);
    expect(cancellationProblem('01', '')).toBe(INVOICE_MESSAGES.substitutionRequired);
    expect(cancellationProblem('01', 'abc')).toBe(INVOICE_MESSAGES.substitutionShape);
    expect(cancellationProblem('01', '5FB2822E-396D-4725-8521-CDC4BDD20CCF')).toBeNull();
    expect(cancellationProblem('02', null)).toBeNull();
  });
});
