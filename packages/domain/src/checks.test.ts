import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cents } from './money.ts';
import { checkName, normalizeTabName, planChecks, splitSums, tabNameKey, type CheckLine } from './checks.ts';

const lineArb = fc.record({ productPrice: fc.integer({ min: 0, max: 5_000_00 }), quantity: fc.integer({ min: 1, max: 99 }) });

describe('planChecks', () => {
  it('any assignment of units into checks sums exactly to the order subtotal, nothing negative', () => {
    fc.assert(
      fc.property(
        fc.array(lineArb, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.nat(), { maxLength: 200 }),
        (raw, checkCount, seeds) => {
          const lines: CheckLine[] = raw.map((l, i) => ({ id: `l${i}`, productPrice: cents(l.productPrice), quantity: l.quantity }));
          // Deal each unit of each line to the order (slot 0) or one of the new checks, from the seeds.
          const takes: Record<string, number>[] = Array.from({ length: checkCount }, () => ({}));
          let s = 0;
          for (const line of lines) {
            for (let u = 0; u < line.quantity; u++) {
              const slot = (seeds[s++ % Math.max(1, seeds.length)] ?? 0) % (checkCount + 1);
              if (slot === 0) continue;
              const take = takes[slot - 1]!;
              take[line.id] = (take[line.id] ?? 0) + 1;
            }
          }
          const subtotal = lines.reduce((acc, l) => acc + l.productPrice * l.quantity, 0);
          const plan = planChecks(lines, takes);
          // The sums the split dialog shows add up to the order, and are the plan's when it stands.
          const sums = splitSums(lines, takes);
          expect(sums.total).toBe(subtotal);
          expect(sums.stays + sums.takes.reduce((a, b) => a + b, 0)).toBe(subtotal);
          if (plan.ok) expect([sums.stays, ...sums.takes]).toEqual([plan.remainingSubtotal, ...plan.subtotals]);
          const units = (t: Record<string, number>) => Object.values(t).reduce((a, b) => a + b, 0);
          if (takes.some((t) => units(t) === 0)) {
            expect(plan).toMatchObject({ ok: false, reason: 'empty_check' });
            return;
          }
          const moved = takes.reduce((acc, t) => acc + units(t), 0);
          const total = lines.reduce((acc, l) => acc + l.quantity, 0);
          if (moved === total) {
            expect(plan).toMatchObject({ ok: false, reason: 'nothing_left' });
            return;
          }
          expect(plan.ok).toBe(true);
          if (!plan.ok) return;
          expect(plan.remainingSubtotal + plan.subtotals.reduce((a, b) => a + b, 0)).toBe(subtotal);
          for (const value of [plan.remainingSubtotal, ...plan.subtotals, ...Object.values(plan.remaining)]) {
            expect(Number.isSafeInteger(value)).toBe(true);
            expect(value).toBeGreaterThanOrEqual(0);
          }
          // Every unit is somewhere exactly once.
          for (const line of lines) {
            const taken = takes.reduce((acc, t) => acc + (t[line.id] ?? 0), 0);
            expect(plan.remaining[line.id]! + taken).toBe(line.quantity);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses taking more units than a line has, unknown lines, empty checks and taking everything', () => {
    const lines: CheckLine[] = [
      { id: 'a', productPrice: cents(45_00), quantity: 3 },
      { id: 'b', productPrice: cents(120_00), quantity: 1 },
    ];
    expect(planChecks(lines, [{ a: 4 }])).toMatchObject({ ok: false, reason: 'too_many' });
    expect(planChecks(lines, [{ a: 2 }, { a: 2 }])).toMatchObject({ ok: false, reason: 'too_many' });
    expect(planChecks(lines, [{ a: -1, b: 1 }])).toMatchObject({ ok: false, reason: 'too_many' });
    expect(planChecks(lines, [{ z: 1 }])).toMatchObject({ ok: false, reason: 'unknown_line' });
    expect(planChecks(lines, [{ a: 0 }])).toMatchObject({ ok: false, reason: 'empty_check' });
    expect(planChecks(lines, [{ a: 3 }, { b: 1 }])).toMatchObject({ ok: false, reason: 'nothing_left' });
    expect(planChecks(lines, [{ a: 2 }, { a: 1 }])).toEqual({
      ok: true,
      remaining: { a: 0, b: 1 },
      remainingSubtotal: 120_00,
      subtotals: [90_00, 45_00],
    });
  });
});

describe('check and tab names', () => {
  it('names checks A to Z, then by number', () => {
    expect([0, 1, 2, 25, 26].map(checkName)).toEqual(['Cuenta A', 'Cuenta B', 'Cuenta C', 'Cuenta Z', 'Cuenta 27']);
  });
  it('compares tab names without case, accents or extra spaces', () => {
    expect(normalizeTabName('  Cuenta   de Juan ')).toBe('Cuenta de Juan');
    expect(tabNameKey('Cuenta de JOSÉ')).toBe(tabNameKey(' cuenta de jose'));
  });
});
