import type { Cents } from './money.ts';
import { cents } from './money.ts';
import { TAX_TREATMENT_LABELS, type TaxBreakdown, type TaxGroup, type TaxTreatment } from './tax.ts';
import { DEFAULT_SAT_PRODUCT_KEY, DEFAULT_SAT_UNIT_KEY, REGIMENES_FISCALES } from './fiscal.ts';

/**
 * CFDI 4.0 rules shared by the invoicing queue, the PAC simulator and the cashier's form: SAT's
 * catalogues we use (c_FormaPago, c_UsoCFDI × c_RegimenFiscal), the factura global's receptor,
 * the cancellation motives, and a paid check's concepts, whose total is what it charged exactly.
 */

/** SAT's c_FormaPago. */
export const FORMAS_PAGO: readonly { code: string; name: string }[] = [
  { code: '01', name: 'Efectivo' },
  { code: '02', name: 'Cheque nominativo' },
  { code: '03', name: 'Transferencia electrónica de fondos' },
  { code: '04', name: 'Tarjeta de crédito' },
  { code: '05', name: 'Monedero electrónico' },
  { code: '06', name: 'Dinero electrónico' },
  { code: '08', name: 'Vales de despensa' },
  { code: '12', name: 'Dación en pago' },
  { code: '13', name: 'Pago por subrogación' },
  { code: '14', name: 'Pago por consignación' },
  { code: '15', name: 'Condonación' },
  { code: '17', name: 'Compensación' },
  { code: '23', name: 'Novación' },
  { code: '24', name: 'Confusión' },
  { code: '25', name: 'Remisión de deuda' },
  { code: '26', name: 'Prescripción o caducidad' },
  { code: '27', name: 'A satisfacción del acreedor' },
  { code: '28', name: 'Tarjeta de débito' },
  { code: '29', name: 'Tarjeta de servicios' },
  { code: '30', name: 'Aplicación de anticipos' },
  { code: '31', name: 'Intermediario pagos' },
  { code: '99', name: 'Por definir' },
];

export function isFormaPago(code: string): boolean {
  return FORMAS_PAGO.some((f) => f.code === code);
}

const EMPRESARIAL = ['601', '603', '606', '612', '620', '621', '622', '623', '624', '625', '626'];
const PERSONALES = ['605', '606', '608', '611', '612', '614', '607', '615', '625'];
const TODOS = [
  '601',
  '603',
  '605',
  '606',
  '608',
  '610',
  '611',
  '612',
  '614',
  '616',
  '620',
  '621',
  '622',
  '623',
  '624',
  '607',
  '615',
  '625',
  '626',
];

/** SAT's c_UsoCFDI, each with the regímenes fiscales of the receptor it applies to. */
export const USOS_CFDI: readonly { code: string; name: string; regimenes: readonly string[] }[] = [
  { code: 'G01', name: 'Adquisición de mercancías', regimenes: EMPRESARIAL },
  { code: 'G02', name: 'Devoluciones, descuentos o bonificaciones', regimenes: EMPRESARIAL },
  { code: 'G03', name: 'Gastos en general', regimenes: EMPRESARIAL },
  { code: 'I01', name: 'Construcciones', regimenes: EMPRESARIAL },
  { code: 'I02', name: 'Mobiliario y equipo de oficina por inversiones', regimenes: EMPRESARIAL },
  { code: 'I03', name: 'Equipo de transporte', regimenes: EMPRESARIAL },
  { code: 'I04', name: 'Equipo de cómputo y accesorios', regimenes: EMPRESARIAL },
  { code: 'I05', name: 'Dados, troqueles, moldes, matrices y herramental', regimenes: EMPRESARIAL },
  { code: 'I06', name: 'Comunicaciones telefónicas', regimenes: EMPRESARIAL },
  { code: 'I07', name: 'Comunicaciones satelitales', regimenes: EMPRESARIAL },
  { code: 'I08', name: 'Otra maquinaria y equipo', regimenes: EMPRESARIAL },
  { code: 'D01', name: 'Honorarios médicos, dentales y gastos hospitalarios', regimenes: PERSONALES },
  { code: 'D02', name: 'Gastos médicos por incapacidad o discapacidad', regimenes: PERSONALES },
  { code: 'D03', name: 'Gastos funerales', regimenes: PERSONALES },
  { code: 'D04', name: 'Donativos', regimenes: PERSONALES },
  { code: 'D05', name: 'Intereses reales efectivamente pagados por créditos hipotecarios (casa habitación)', regimenes: PERSONALES },
  { code: 'D06', name: 'Aportaciones voluntarias al SAR', regimenes: PERSONALES },
  { code: 'D07', name: 'Primas por seguros de gastos médicos', regimenes: PERSONALES },
  { code: 'D08', name: 'Gastos de transportación escolar obligatoria', regimenes: PERSONALES },
  { code: 'D09', name: 'Depósitos en cuentas para el ahorro, primas que tengan como base planes de pensiones', regimenes: PERSONALES },
  { code: 'D10', name: 'Pagos por servicios educativos (colegiaturas)', regimenes: PERSONALES },
  { code: 'S01', name: 'Sin efectos fiscales', regimenes: TODOS },
  { code: 'CP01', name: 'Pagos', regimenes: TODOS },
  { code: 'CN01', name: 'Nómina', regimenes: ['605'] },
];

export function isRegimenFiscal(code: string): boolean {
  return REGIMENES_FISCALES.some((r) => r.code === code);
}

/** Whether a receptor of régimen `regimen` may receive a CFDI with uso `uso`. */
export function usoAllowed(uso: string, regimen: string): boolean {
  return USOS_CFDI.find((u) => u.code === uso)?.regimenes.includes(regimen) ?? false;
}

/** The receptor of a factura global (SAT's rules for sales to the general public). */
export const PUBLICO_EN_GENERAL = { rfc: 'XAXX010101000', nombre: 'PUBLICO EN GENERAL', uso: 'S01', regimen: '616' } as const;

/** SAT's c_Periodicidad of a factura global's InformacionGlobal, with the PAC's names. */
export const GLOBAL_PERIODICITIES = { day: '01', week: '02', fortnight: '03', month: '04', two_months: '05' } as const;
export type GlobalPeriodicity = keyof typeof GLOBAL_PERIODICITIES;

/** SAT's cancellation motives: 01 needs the substituting invoice's UUID. */
export const CANCELLATION_MOTIVES = {
  '01': 'Comprobante emitido con errores con relación',
  '02': 'Comprobante emitido con errores sin relación',
  '03': 'No se llevó a cabo la operación',
  '04': 'Operación nominativa relacionada en una factura global',
} as const;
export type CancellationMotive = keyof typeof CANCELLATION_MOTIVES;

/** What a ticket's CFDI stands at: its receipt queued, issued, invoiced to a customer, in a global, cancelled. */
export const INVOICING_STATES = ['pendiente', 'emitido', 'facturado', 'en_global', 'cancelado'] as const;
export type InvoicingState = (typeof INVOICING_STATES)[number];

/** One concept of a CFDI: a base before taxes (centavos) and the rates the PAC applies to it. */
export interface CfdiConcept {
  description: string;
  productKey: string;
  unitKey: string;
  treatment: TaxTreatment;
  base: Cents;
  /** IVA rate in basis points (0 for tasa 0 and exento). */
  ivaRateBp: number;
  iepsRateBp: number | null;
}

/** round(n × bp / 10 000) half up, for n ≥ 0, in integers: how a tax on a base is rounded to the centavo. */
export function taxOn(base: number, rateBp: number): number {
  if (base <= 0 || rateBp <= 0) return 0;
  const n = BigInt(base) * BigInt(rateBp);
  return Number((2n * n + 10_000n) / 20_000n);
}

/** What a concept charges: its base, its IEPS, and the IVA on base + IEPS, each rounded once. */
export function conceptTaxes(c: { base: number; ivaRateBp: number; iepsRateBp: number | null }): {
  ieps: number;
  iva: number;
  total: number;
} {
  const ieps = c.iepsRateBp ? taxOn(c.base, c.iepsRateBp) : 0;
  const iva = taxOn(c.base + ieps, c.ivaRateBp);
  return { ieps, iva, total: c.base + ieps + iva };
}

/** The base whose concept charges exactly `amount` (the frozen base first), or the largest that charges less. */
function baseFor(amount: number, ivaRateBp: number, iepsRateBp: number | null, frozen: number): { base: number; exact: boolean } {
  const charge = (base: number) => conceptTaxes({ base, ivaRateBp, iepsRateBp }).total;
  if (frozen >= 0 && frozen <= amount && charge(frozen) === amount) return { base: frozen, exact: true };
  // charge() never decreases as the base grows: the largest base charging at most `amount`.
  let lo = 0;
  let hi = amount;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (charge(mid) <= amount) lo = mid;
    else hi = mid - 1;
  }
  return { base: lo, exact: charge(lo) === amount };
}

/**
 * The bases of one or two concepts at these rates charging exactly `amount`; null when none do
 * (with a high IEPS, a few centavos are below what the smallest base charges).
 */
function basesFor(amount: number, ivaRateBp: number, iepsRateBp: number | null, frozen: number) {
  let first = baseFor(amount, ivaRateBp, iepsRateBp, frozen);
  if (first.exact && first.base > 0) return { bases: [first.base], iepsRateBp };
  // The amount falls between two of the rounding's steps: a small second concept takes the rest.
  for (let tries = 0; tries < 20 && first.base > 0; tries++) {
    const rest = amount - conceptTaxes({ base: first.base, ivaRateBp, iepsRateBp }).total;
    const second = baseFor(rest, ivaRateBp, iepsRateBp, -1);
    if (second.exact && second.base > 0) return { bases: [first.base, second.base], iepsRateBp };
    first = { base: first.base - 1, exact: false };
  }
  return null;
}

/** The concepts of one rate group charging exactly its amount, under these keys and description. */
export function groupConcepts(g: TaxGroup, keys: { productKey: string; unitKey: string; description: string }): CfdiConcept[] {
  if (g.amount <= 0) return [];
  const iepsRateBp = g.iepsRateBp ?? null;
  const bases = basesFor(g.amount, g.rateBp, iepsRateBp, g.base) ?? basesFor(g.amount, g.rateBp, null, -1);
  if (!bases) throw new Error(`no concepts charge ${g.amount} at ${g.rateBp}`);
  return bases.bases.map((base) => ({
    description: keys.description,
    productKey: keys.productKey,
    unitKey: keys.unitKey,
    treatment: g.treatment,
    base: cents(base),
    ivaRateBp: g.rateBp,
    iepsRateBp: bases.iepsRateBp,
  }));
}

/** A concept's description: the treatment named when the check has several rate groups. */
export function conceptDescription(g: Pick<TaxGroup, 'treatment'>, several: boolean): string {
  return several ? `Consumo de alimentos y bebidas (${TAX_TREATMENT_LABELS[g.treatment]})` : 'Consumo de alimentos y bebidas';
}

/**
 * A paid check's concepts from its frozen breakdown: one per rate group, its base the frozen one
 * when the PAC's rounding of its taxes gives back the group's amount, otherwise the base that
 * does; where no base does (the rounding skips that amount), a second concept of a few centavos
 * takes the rest (and where even that fails, under a high IEPS, the group goes without its IEPS:
 * a few centavos' worth). So Σ concepts' totals = what the check charged before its tip, to the centavo.
 */
export function cfdiConcepts(breakdown: TaxBreakdown, keys: { productKey?: string; unitKey?: string } = {}): CfdiConcept[] {
  const productKey = keys.productKey ?? DEFAULT_SAT_PRODUCT_KEY;
  const unitKey = keys.unitKey ?? DEFAULT_SAT_UNIT_KEY;
  const several = breakdown.groups.filter((g) => g.amount > 0).length > 1;
  return breakdown.groups.flatMap((g) => groupConcepts(g, { productKey, unitKey, description: conceptDescription(g, several) }));
}

/** Σ of the concepts' totals as the PAC computes them. */
export function conceptsTotal(concepts: readonly CfdiConcept[]): number {
  return concepts.reduce((sum, c) => sum + conceptTaxes(c).total, 0);
}
