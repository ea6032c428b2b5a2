import type { TaxTreatment } from './tax.ts';

/**
 * The business's fiscal data (Configuración › Datos fiscales) and the SAT keys of a product. The
 * RFC's date part and check digit are checked by the server (a library of SAT's algorithm); the
 * shapes, catalogues and messages are here, for the server and the form alike.
 */
export type PersonKind = 'moral' | 'fisica';

/** SAT's c_RegimenFiscal: each régimen and the kinds of person it applies to. */
export const REGIMENES_FISCALES: readonly { code: string; name: string; applies: readonly PersonKind[] }[] = [
  { code: '601', name: 'General de Ley Personas Morales', applies: ['moral'] },
  { code: '603', name: 'Personas Morales con Fines no Lucrativos', applies: ['moral'] },
  { code: '605', name: 'Sueldos y Salarios e Ingresos Asimilados a Salarios', applies: ['fisica'] },
  { code: '606', name: 'Arrendamiento', applies: ['fisica'] },
  { code: '607', name: 'Régimen de Enajenación o Adquisición de Bienes', applies: ['fisica'] },
  { code: '608', name: 'Demás ingresos', applies: ['fisica'] },
  { code: '610', name: 'Residentes en el Extranjero sin Establecimiento Permanente en México', applies: ['fisica', 'moral'] },
  { code: '611', name: 'Ingresos por Dividendos (socios y accionistas)', applies: ['fisica'] },
  { code: '612', name: 'Personas Físicas con Actividades Empresariales y Profesionales', applies: ['fisica'] },
  { code: '614', name: 'Ingresos por intereses', applies: ['fisica'] },
  { code: '615', name: 'Régimen de los ingresos por obtención de premios', applies: ['fisica'] },
  { code: '616', name: 'Sin obligaciones fiscales', applies: ['fisica'] },
  { code: '620', name: 'Sociedades Cooperativas de Producción que optan por diferir sus ingresos', applies: ['moral'] },
  { code: '621', name: 'Incorporación Fiscal', applies: ['fisica'] },
  { code: '622', name: 'Actividades Agrícolas, Ganaderas, Silvícolas y Pesqueras', applies: ['moral'] },
  { code: '623', name: 'Opcional para Grupos de Sociedades', applies: ['moral'] },
  { code: '624', name: 'Coordinados', applies: ['moral'] },
  {
    code: '625',
    name: 'Régimen de las Actividades Empresariales con ingresos a través de Plataformas Tecnológicas',
    applies: ['fisica'],
  },
  { code: '626', name: 'Régimen Simplificado de Confianza', applies: ['fisica', 'moral'] },
];

/** Default SAT keys of a product: restaurant service, unit of service. */
export const DEFAULT_SAT_PRODUCT_KEY = '90101501';
export const DEFAULT_SAT_UNIT_KEY = 'E48';

/** Units a bar uses most (the form offers them); any key of SAT's shape is accepted. */
export const SAT_UNIT_KEYS: readonly { code: string; name: string }[] = [
  { code: 'E48', name: 'Unidad de servicio' },
  { code: 'H87', name: 'Pieza' },
  { code: 'ACT', name: 'Actividad' },
  { code: 'C62', name: 'Uno' },
  { code: 'XBX', name: 'Caja' },
  { code: 'XPK', name: 'Paquete' },
  { code: 'LTR', name: 'Litro' },
  { code: 'MLT', name: 'Mililitro' },
  { code: 'KGM', name: 'Kilogramo' },
  { code: 'GRM', name: 'Gramo' },
];

export const TICKET_SERIES_MAX = 10;
export const RAZON_SOCIAL_MAX = 254;

export const FISCAL_MESSAGES = {
  rfcLength: 'El RFC debe tener 12 caracteres (persona moral) o 13 (persona física)',
  rfcShape: 'El RFC no tiene la forma de un RFC: letras, fecha (AAMMDD) y homoclave',
  rfcDate: 'La fecha del RFC no es válida',
  rfcCheckDigit: 'El dígito verificador del RFC no corresponde',
  rfcGeneric: 'Escribe el RFC del negocio, no el genérico',
  razonSocialRequired: 'Escribe la razón social como aparece en la Constancia de Situación Fiscal',
  razonSocialTooLong: `La razón social es demasiado larga (máximo ${RAZON_SOCIAL_MAX} caracteres)`,
  regimenUnknown: 'Elige un régimen fiscal del catálogo del SAT',
  regimenKind: (kind: PersonKind) => `Ese régimen fiscal no aplica a una persona ${kind === 'moral' ? 'moral' : 'física'}`,
  postalCode: 'El lugar de expedición debe ser un código postal de 5 dígitos',
  ivaRate: 'La tasa de IVA del negocio es 16 % o 8 % (región fronteriza)',
  series: `La serie de los tickets lleva de 1 a ${TICKET_SERIES_MAX} letras o números`,
  productKey: 'La clave de producto o servicio del SAT lleva 8 dígitos',
  unitKey: 'La clave de unidad del SAT lleva de 2 a 3 letras o números (por ejemplo E48 o H87)',
  iepsRate: 'La tasa de IEPS debe estar entre 0.01 % y 300 %',
} as const;

/** The RFC as stored: upper case, no spaces or dashes. */
export function normalizeRfc(rfc: string): string {
  return rfc.trim().toUpperCase().replace(/[\s-]/g, '');
}

const RFC_SHAPE = /^[A-ZÑ&]{3,4}\d{6}[A-Z0-9]{3}$/;

/** The kind of person an RFC names by its length, or the message of a wrong length or shape. */
export function rfcPersonKind(rfc: string): { ok: true; kind: PersonKind } | { ok: false; message: string } {
  const value = normalizeRfc(rfc);
  if (value.length !== 12 && value.length !== 13) return { ok: false, message: FISCAL_MESSAGES.rfcLength };
  if (!RFC_SHAPE.test(value)) return { ok: false, message: FISCAL_MESSAGES.rfcShape };
  return { ok: true, kind: value.length === 12 ? 'moral' : 'fisica' };
}

/** The regímenes an RFC of that kind may have. */
export function regimenesFor(kind: PersonKind): typeof REGIMENES_FISCALES {
  return REGIMENES_FISCALES.filter((r) => r.applies.includes(kind));
}

export function isPostalCode(value: string): boolean {
  return /^\d{5}$/.test(value);
}

export function isSatProductKey(value: string): boolean {
  return /^\d{8}$/.test(value);
}

export function isSatUnitKey(value: string): boolean {
  return /^[A-Z0-9]{2,3}$/.test(value);
}

export function isTicketSeries(value: string): boolean {
  return new RegExp(`^[A-Z0-9]{1,${TICKET_SERIES_MAX}}$`).test(value);
}

/** The site's default IVA: 16 % general, 8 % in the región fronteriza. */
export const DEFAULT_IVA_RATES = [16, 8] as const;
export type DefaultIvaRate = (typeof DEFAULT_IVA_RATES)[number];

export function treatmentForRate(rate: DefaultIvaRate): TaxTreatment {
  return rate === 8 ? 'iva8' : 'iva16';
}

export interface FiscalSettings {
  rfc: string;
  razonSocial: string;
  regimenFiscal: string;
  lugarExpedicion: string;
  defaultIvaRate: DefaultIvaRate;
  ticketSeries: string;
  /** The factura global's period (diaria, semanal o mensual). */
  facturaGlobal: 'day' | 'week' | 'month';
}

export const DEFAULT_FISCAL: FiscalSettings = {
  rfc: '',
  razonSocial: '',
  regimenFiscal: '',
  lugarExpedicion: '',
  defaultIvaRate: 16,
  ticketSeries: 'A',
  facturaGlobal: 'day',
};

/**
 * What is wrong with the fiscal data, field by field (the RFC's check digit and date aside, the
 * server's). Empty: valid.
 */
export function fiscalProblems(s: FiscalSettings): Partial<Record<keyof FiscalSettings, string>> {
  const problems: Partial<Record<keyof FiscalSettings, string>> = {};
  const rfc = normalizeRfc(s.rfc);
  const kind = rfcPersonKind(rfc);
  if (!kind.ok) problems.rfc = kind.message;
  const razon = s.razonSocial.trim();
  if (razon === '') problems.razonSocial = FISCAL_MESSAGES.razonSocialRequired;
  else if (razon.length > RAZON_SOCIAL_MAX) problems.razonSocial = FISCAL_MESSAGES.razonSocialTooLong;
  const regimen = REGIMENES_FISCALES.find((r) => r.code === s.regimenFiscal);
  if (!regimen) problems.regimenFiscal = FISCAL_MESSAGES.regimenUnknown;
  else if (kind.ok && !regimen.applies.includes(kind.kind)) problems.regimenFiscal = FISCAL_MESSAGES.regimenKind(kind.kind);
  if (!isPostalCode(s.lugarExpedicion)) problems.lugarExpedicion = FISCAL_MESSAGES.postalCode;
  if (!(DEFAULT_IVA_RATES as readonly number[]).includes(s.defaultIvaRate)) problems.defaultIvaRate = FISCAL_MESSAGES.ivaRate;
  if (!isTicketSeries(s.ticketSeries)) problems.ticketSeries = FISCAL_MESSAGES.series;
  return problems;
}
