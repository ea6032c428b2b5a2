import { describe, expect, it } from 'vitest';
import { DEFAULT_FISCAL, FISCAL_MESSAGES, fiscalProblems, isSatUnitKey, regimenesFor, rfcPersonKind } from './fiscal.ts';

describe('fiscal data', () => {
  it('tells a persona moral (12) from a física (13) and refuses other lengths and shapes', () => {
    expect(rfcPersonKind('eku900317 3c9')).toEqual({ ok: true, kind: 'moral' });
    expect(rfcPersonKind('COSC8001137NA')).toEqual({ ok: true, kind: 'fisica' });
    expect(rfcPersonKind('EKU90031')).toEqual({ ok: false, message: FISCAL_MESSAGES.rfcLength });
    expect(rfcPersonKind('EKU9A03173C9')).toEqual({ ok: false, message: FISCAL_MESSAGES.rfcShape });
  });

  it('offers only the regímenes of that kind of person', () => {
    expect(regimenesFor('moral').map((r) => r.code)).toContain('601');
    expect(regimenesFor('moral').map((r) => r.code)).not.toContain('612');
    expect(regimenesFor('fisica').map((r) => r.code)).toContain('626');
  });

  it('names each wrong field in Spanish', () => {
    const problems = fiscalProblems({ ...DEFAULT_FISCAL, rfc: 'EKU9003173C9', regimenFiscal: '612', lugarExpedicion: '6600' });
    expect(problems).toEqual({
      razonSocial: FISCAL_MESSAGES.razonSocialRequired,
      regimenFiscal: 'Ese régimen fiscal no aplica a una persona moral',
      lugarExpedicion: FISCAL_MESSAGES.postalCode,
    });
    expect(isSatUnitKey('H87')).toBe(true);
    expect(isSatUnitKey('h8')).toBe(false);
  });
});
