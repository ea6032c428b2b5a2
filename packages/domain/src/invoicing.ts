import { REGIMENES_FISCALES, isPostalCode, normalizeRfc, rfcPersonKind, type PersonKind } from './fiscal.ts';
import { CANCELLATION_MOTIVES, PUBLICO_EN_GENERAL, USOS_CFDI, usoAllowed, type CancellationMotive } from './cfdi.ts';
import { addDays, businessDate, zonedToUtc } from './shift.ts';

/**
 * The cashier's "Facturar" and the factura global: the receptor's rules (the form mirrors them,
 * the server enforces them; the RFC's check digit is the server's, by SAT's algorithm), the
 * global's periods in the business's time zone, and the cancellation's rules.
 */

export const INVOICE_MESSAGES = {
  rfcGeneric: 'Para el público en general no se factura al momento: el ticket entra en la factura global',
  legalNameRequired: 'Escribe el nombre o razón social como aparece en la Constancia de Situación Fiscal',
  legalNameTooLong: 'El nombre o razón social es demasiado largo (máximo 254 caracteres)',
  regimenSocietario: 'Escribe la razón social sin el régimen societario (sin «S.A. de C.V.», «S. de R.L.», etc.)',
  zip: 'El código postal del receptor debe tener 5 dígitos',
  regimenUnknown: 'Elige el régimen fiscal de la Constancia de Situación Fiscal',
  regimenKind: (kind: PersonKind) => `Ese régimen fiscal no aplica a una persona ${kind === 'moral' ? 'moral' : 'física'}`,
  usoUnknown: 'Elige el uso del CFDI',
  usoRegimen: (uso: string, regimen: string) => `El uso ${uso} no aplica al régimen fiscal ${regimen}`,
  email: 'El correo electrónico no es válido',
  motive: 'Elige el motivo de la cancelación',
  substitutionRequired: 'El motivo 01 pide el folio fiscal (UUID) de la factura que sustituye a la cancelada',
  substitutionShape: 'El folio fiscal (UUID) tiene 36 caracteres: 8-4-4-4-12 letras y números',
} as const;

export const LEGAL_NAME_MAX = 254;

/** A name ending in its régimen societario ("S.A. DE C.V.", "S DE RL DE CV", "SAPI DE CV", "SC"…): CFDI 4.0 wants it without. */
const REGIMEN_SOCIETARIO =
  /[\s,]+(S\.?\s?A\.?(\s?P\.?\s?I\.?)?|S\.?\s?A\.?\s?S\.?|S\.?\s?DE\s?R\.?\s?L\.?|S\.?\s?C\.?|S\.?\s?EN\s?C\.?|A\.?\s?C\.?)(\s+DE\s+C\.?\s?V\.?)?\.?$/i;

export function hasRegimenSocietario(legalName: string): boolean {
  return REGIMEN_SOCIETARIO.test(legalName.trim());
}

/** The usos CFDI a receptor of this régimen may be given. */
export function usosFor(regimen: string): typeof USOS_CFDI {
  return USOS_CFDI.filter((u) => u.regimenes.includes(regimen));
}

export interface InvoiceReceptor {
  rfc: string;
  legalName: string;
  zip: string;
  taxSystem: string;
  use: string;
  email: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * What is wrong with a customer's fiscal data, field by field (empty: valid): the RFC's shape and
 * the kind of person it names, the name without régimen societario, the código postal, the régimen
 * of that kind of person and a uso allowed to that régimen. The RFC's date and check digit: the server's.
 */
export function receptorProblems(r: InvoiceReceptor): Partial<Record<keyof InvoiceReceptor, string>> {
  const problems: Partial<Record<keyof InvoiceReceptor, string>> = {};
  const rfc = normalizeRfc(r.rfc);
  const kind = rfcPersonKind(rfc);
  if (rfc === PUBLICO_EN_GENERAL.rfc) problems.rfc = INVOICE_MESSAGES.rfcGeneric;
  else if (!kind.ok) problems.rfc = kind.message;
  const name = r.legalName.trim();
  if (name === '') problems.legalName = INVOICE_MESSAGES.legalNameRequired;
  else if (name.length > LEGAL_NAME_MAX) problems.legalName = INVOICE_MESSAGES.legalNameTooLong;
  else if (hasRegimenSocietario(name)) problems.legalName = INVOICE_MESSAGES.regimenSocietario;
  if (!isPostalCode(r.zip.trim())) problems.zip = INVOICE_MESSAGES.zip;
  const regimen = REGIMENES_FISCALES.find((x) => x.code === r.taxSystem);
  if (!regimen) problems.taxSystem = INVOICE_MESSAGES.regimenUnknown;
  else if (kind.ok && !regimen.applies.includes(kind.kind)) problems.taxSystem = INVOICE_MESSAGES.regimenKind(kind.kind);
  if (!USOS_CFDI.some((u) => u.code === r.use)) problems.use = INVOICE_MESSAGES.usoUnknown;
  else if (regimen && !usoAllowed(r.use, regimen.code)) problems.use = INVOICE_MESSAGES.usoRegimen(r.use, regimen.code);
  if (r.email.trim() !== '' && !EMAIL.test(r.email.trim())) problems.email = INVOICE_MESSAGES.email;
  return problems;
}

/** The factura global's period, as Datos fiscales sets it. */
export const GLOBAL_PERIODS = ['day', 'week', 'month'] as const;
export type GlobalPeriod = (typeof GLOBAL_PERIODS)[number];
export const GLOBAL_PERIOD_LABELS: Record<GlobalPeriod, string> = { day: 'Diaria', week: 'Semanal', month: 'Mensual' };

export interface GlobalPeriodSpan {
  /** Unique per period: 'day:2025-03-14', 'week:2025-03-10', 'month:2025-03'. */
  key: string;
  periodicity: GlobalPeriod;
  /** The local dates it covers, inclusive. */
  firstDate: string;
  lastDate: string;
  /** [from, to): instants. */
  from: number;
  to: number;
  /** SAT's c_Meses and the year of InformacionGlobal. */
  months: string;
  year: number;
}

/**
 * The period a sale at `instant` belongs to, in the business's time zone. A week runs Monday to
 * Sunday and is cut at the month's end, so InformacionGlobal's month is never ambiguous.
 */
export function globalPeriodOf(periodicity: GlobalPeriod, instant: number, tz: string): GlobalPeriodSpan {
  const date = businessDate(new Date(instant), tz);
  const [y, m] = date.split('-').map(Number) as [number, number];
  const monthFirst = `${date.slice(0, 7)}-01`;
  const nextMonthFirst = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
  let first = date;
  let next = addDays(date, 1);
  if (periodicity === 'month') {
    first = monthFirst;
    next = nextMonthFirst;
  } else if (periodicity === 'week') {
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay(); // 0 domingo
    const monday = addDays(date, -((weekday + 6) % 7));
    const nextMonday = addDays(monday, 7);
    first = monday < monthFirst ? monthFirst : monday;
    next = nextMonday > nextMonthFirst ? nextMonthFirst : nextMonday;
  }
  return {
    key: `${periodicity}:${periodicity === 'month' ? date.slice(0, 7) : first}`,
    periodicity,
    firstDate: first,
    lastDate: addDays(next, -1),
    from: zonedToUtc(first, 0, 0, tz).getTime(),
    to: zonedToUtc(next, 0, 0, tz).getTime(),
    months: String(m).padStart(2, '0'),
    year: y,
  };
}

/** A UUID (folio fiscal) as SAT writes it. */
export const UUID_SHAPE = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/i;

/** What is wrong with a cancellation's motive and its substituting UUID (null: valid). */
export function cancellationProblem(motive: string, substitution: string | null | undefined): string | null {
  if (!(motive in CANCELLATION_MOTIVES)) return INVOICE_MESSAGES.motive;
  const sub = substitution?.trim() ?? '';
  if ((motive as CancellationMotive) === '01') {
    if (sub === '') return INVOICE_MESSAGES.substitutionRequired;
    if (!UUID_SHAPE.test(sub)) return INVOICE_MESSAGES.substitutionShape;
  }
  return null;
}

/** What an invoice stands at, in the Facturación screen's words. */
export const INVOICE_STATES = ['solicitando', 'timbrada', 'error', 'cancelacion_pendiente', 'cancelada', 'vacia'] as const;
export type InvoiceState = (typeof INVOICE_STATES)[number];
export const INVOICE_STATE_LABELS: Record<InvoiceState, string> = {
  solicitando: 'Timbrando',
  timbrada: 'Timbrada',
  error: 'Con error',
  cancelacion_pendiente: 'Cancelación pendiente',
  cancelada: 'Cancelada',
  vacia: 'Sin recibos',
};
export const RECEIPT_STATE_LABELS = {
  pendiente: 'Pendiente',
  emitido: 'Emitido',
  facturado: 'Facturado',
  en_global: 'En global',
  cancelado: 'Cancelado',
} as const;
