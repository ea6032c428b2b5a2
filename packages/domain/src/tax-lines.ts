import type { Cents } from './money.ts';
import { cents } from './money.ts';
import type { TaxBreakdown } from './tax.ts';
import { sumBreakdowns } from './tax.ts';

/**
 * How a breakdown reads wherever money is shown (checkout, tickets, ESC/POS receipt, corte,
 * reports and their sheets): "Subtotal sin IVA", one line per IVA rate (and per IEPS rate),
 * "Total". The lines add up: subtotal + every tax line = total, to the centavo.
 */
export const TAX_TEXT = {
  heading: 'Impuestos incluidos',
  subtotal: 'Subtotal sin IVA',
  total: 'Total',
  included: 'Precios con IVA incluido',
  netSales: 'Ventas netas',
  vatHeading: 'IVA trasladado',
  sheet: 'Impuestos',
  withTaxes: 'Ventas con impuestos',
  tips: 'Propinas (no causan IVA)',
  charged: 'Total cobrado',
  iva: (rate: string) => `IVA ${rate}`,
  ieps: (rate: string) => `IEPS ${rate}`,
} as const;

/** "16 %", "8 %", "26.5 %": a basis-point rate as the ticket prints it. */
export function ratePercent(rateBp: number): string {
  const value = rateBp / 100;
  return `${Number.isInteger(value) ? value : value.toFixed(2).replace(/0+$/, '')} %`;
}

export interface TaxRateLine {
  kind: 'iva' | 'ieps';
  rateBp: number;
  label: string;
  amount: Cents;
}

export interface TaxSummary {
  /** Σ bases: what the check charged without IVA (nor IEPS). */
  subtotal: Cents;
  /** IEPS lines first (it lies inside the IVA's base), then IVA by rate, highest first; rates of 0 are left out. */
  rates: TaxRateLine[];
  /** What was charged, taxes included (the tip is not taxed and not in it). */
  total: Cents;
  /** The "Precios con IVA incluido" note: when some amount carries IVA, or nothing else is shown. */
  includedNote: boolean;
}

/** The lines of one breakdown (a check's) or of several added up (a night's, a period's). */
export function taxSummary(breakdown: TaxBreakdown | readonly TaxBreakdown[]): TaxSummary {
  const b = Array.isArray(breakdown) ? sumBreakdowns(breakdown as readonly TaxBreakdown[]) : (breakdown as TaxBreakdown);
  const iva = new Map<number, number>();
  const ieps = new Map<number, number>();
  for (const g of b.groups) {
    if (g.rateBp > 0) iva.set(g.rateBp, (iva.get(g.rateBp) ?? 0) + g.tax);
    if (g.iepsRateBp && g.ieps !== undefined) ieps.set(g.iepsRateBp, (ieps.get(g.iepsRateBp) ?? 0) + g.ieps);
  }
  const lines = (kind: 'iva' | 'ieps', map: Map<number, number>) =>
    [...map.entries()]
      .sort(([a], [b]) => b - a)
      .map(([rateBp, amount]) => ({ kind, rateBp, label: TAX_TEXT[kind](ratePercent(rateBp)), amount: cents(amount) }));
  const rates = [...lines('ieps', ieps), ...lines('iva', iva)];
  return { subtotal: b.base, rates, total: b.amount, includedNote: iva.size > 0 || b.groups.length === 0 };
}

/** The summary as label–amount rows, in print order (the ESC/POS receipt, the corte slip, the sheets). */
export function taxSummaryRows(summary: TaxSummary): { label: string; amount: Cents }[] {
  return [
    { label: TAX_TEXT.subtotal, amount: summary.subtotal },
    ...summary.rates.map((r) => ({ label: r.label, amount: r.amount })),
    { label: TAX_TEXT.total, amount: summary.total },
  ];
}
