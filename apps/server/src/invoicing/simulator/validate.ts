import { Rfc } from '@nodecfdi/rfc';
import {
  conceptTaxes,
  GLOBAL_PERIODICITIES,
  isFormaPago,
  isPostalCode,
  isRegimenFiscal,
  isSatProductKey,
  isSatUnitKey,
  PUBLICO_EN_GENERAL,
  REGIMENES_FISCALES,
  rfcPersonKind,
  usoAllowed,
} from '@comanda/domain';

/**
 * The checks Facturapi (and the SAT behind it) make of what it is sent, as the simulator makes
 * them: SAT catalogue codes, the RFC (SAT's algorithm, @nodecfdi/rfc), uso × régimen, and the
 * rules of a receptor that is the público en general. Each refusal names its field (`path`).
 */
export class SimInvalid extends Error {
  constructor(
    readonly path: string,
    message: string,
    readonly status = 400,
    readonly code = 'invalid_request',
  ) {
    super(message);
  }
}

type Json = Record<string, unknown>;

/** A name that ends in its régimen societario (CFDI 4.0 wants the name as in the CSF, without it). */
const REGIMEN_SOCIETARIO = /[\s,]+(S\.?\s?A\.?(\s?P\.?\s?I\.?)?|S\.?\s?DE\s?R\.?\s?L\.?|S\.?\s?C\.?)(\s+DE\s+C\.?\s?V\.?)?$/i;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const decimals = (n: number) => (String(n).split('.')[1] ?? '').length;

export interface SimItem {
  quantity: number;
  product: {
    description: string;
    product_key: string;
    unit_key: string;
    unit_name: string;
    price: number;
    tax_included: boolean;
    taxability: string;
    taxes: { type: string; rate: number; factor: string; withholding: boolean }[];
  };
  /** What the item charges (centavos), taxes included, as the PAC rounds them. */
  totalCents: number;
}

const IVA_RATES = [0, 0.08, 0.16];

function validTaxes(raw: unknown, path: string): SimItem['product']['taxes'] {
  if (raw === undefined) return [{ type: 'IVA', rate: 0.16, factor: 'Tasa', withholding: false }];
  if (!Array.isArray(raw)) throw new SimInvalid(path, `"${path}" must be an array`);
  return raw.map((t, i) => {
    const p = `${path}.${i}`;
    if (!isObject(t)) throw new SimInvalid(p, `"${p}" must be an object`);
    const type = t.type ?? 'IVA';
    if (type !== 'IVA' && type !== 'IEPS' && type !== 'ISR')
      throw new SimInvalid(`${p}.type`, `"${p}.type" must be one of [IVA, IEPS, ISR]`);
    const factor = t.factor ?? 'Tasa';
    if (factor !== 'Tasa' && factor !== 'Cuota' && factor !== 'Exento')
      throw new SimInvalid(`${p}.factor`, `"${p}.factor" must be one of [Tasa, Cuota, Exento]`);
    const rate = factor === 'Exento' ? 0 : t.rate;
    if (typeof rate !== 'number' || rate < 0 || decimals(rate) > 6)
      throw new SimInvalid(`${p}.rate`, `"${p}.rate" must be a number with up to 6 decimals`);
    if (type === 'IVA' && factor === 'Tasa' && !IVA_RATES.includes(rate))
      throw new SimInvalid(`${p}.rate`, 'La tasa de IVA no está en el catálogo c_TasaOCuota del SAT');
    if (type === 'IEPS' && factor === 'Tasa' && rate > 3)
      throw new SimInvalid(`${p}.rate`, 'La tasa de IEPS no está en el catálogo c_TasaOCuota del SAT');
    return { type, rate, factor, withholding: t.withholding === true };
  });
}

/** A receipt's or invoice's line items, with what each charges. */
export function validItems(raw: unknown): SimItem[] {
  if (!Array.isArray(raw) || raw.length === 0) throw new SimInvalid('items', '"items" must contain at least 1 items');
  if (raw.length > 5000) throw new SimInvalid('items', '"items" must contain less than or equal to 5000 items');
  return raw.map((item, i) => {
    const p = `items.${i}`;
    if (!isObject(item)) throw new SimInvalid(p, `"${p}" must be an object`);
    const quantity = item.quantity ?? 1;
    if (typeof quantity !== 'number' || quantity <= 0) throw new SimInvalid(`${p}.quantity`, `"${p}.quantity" must be a positive number`);
    const product = item.product;
    if (!isObject(product)) throw new SimInvalid(`${p}.product`, `"${p}.product" is required`);
    const description = product.description;
    if (typeof description !== 'string' || description.trim() === '' || description.length > 1000)
      throw new SimInvalid(`${p}.product.description`, `"${p}.product.description" is required`);
    const productKey = String(product.product_key ?? '');
    if (!isSatProductKey(productKey))
      throw new SimInvalid(
        `${p}.product.product_key`,
        'La clave de producto o servicio debe tener 8 dígitos del catálogo c_ClaveProdServ del SAT',
      );
    const unitKey = String(product.unit_key ?? 'H87');
    if (!isSatUnitKey(unitKey))
      throw new SimInvalid(`${p}.product.unit_key`, 'La clave de unidad no está en el catálogo c_ClaveUnidad del SAT');
    const price = product.price;
    if (typeof price !== 'number' || price < 0 || decimals(price) > 6)
      throw new SimInvalid(`${p}.product.price`, `"${p}.product.price" must be a positive number`);
    const taxIncluded = product.tax_included ?? true;
    if (typeof taxIncluded !== 'boolean')
      throw new SimInvalid(`${p}.product.tax_included`, `"${p}.product.tax_included" must be a boolean`);
    const taxes = validTaxes(product.taxes, `${p}.product.taxes`);
    const taxability = String(product.taxability ?? (taxes.length ? '02' : '01'));
    if (!['01', '02', '03', '04'].includes(taxability))
      throw new SimInvalid(`${p}.product.taxability`, 'ObjetoImp debe ser 01, 02, 03 o 04');
    const iva = taxes.find((t) => t.type === 'IVA' && !t.withholding);
    const ieps = taxes.find((t) => t.type === 'IEPS' && !t.withholding);
    const bp = (rate: number | undefined) => Math.round((rate ?? 0) * 10_000);
    let totalCents: number;
    if (taxIncluded) totalCents = Math.round(price * quantity * 100);
    else {
      const base = Math.round(price * quantity * 100);
      totalCents = conceptTaxes({
        base,
        ivaRateBp: iva?.factor === 'Tasa' ? bp(iva.rate) : 0,
        iepsRateBp: ieps ? bp(ieps.rate) : null,
      }).total;
    }
    return {
      quantity,
      product: {
        description,
        product_key: productKey,
        unit_key: unitKey,
        unit_name: String(product.unit_name ?? 'Unidad de servicio'),
        price,
        tax_included: taxIncluded,
        taxability,
        taxes,
      },
      totalCents,
    };
  });
}

export function validPaymentForm(raw: unknown, path = 'payment_form'): string {
  if (typeof raw !== 'string' || !isFormaPago(raw) || raw === '99')
    throw new SimInvalid(path, 'La forma de pago no está en el catálogo c_FormaPago del SAT');
  return raw;
}

export interface SimCustomer {
  legal_name: string;
  tax_id: string;
  tax_system: string;
  email: string | null;
  address: { zip: string; country: string };
}

/** A receptor of a nominative CFDI: RFC (check digit and date), régimen of that kind of person, uso allowed to it. */
export function validCustomer(raw: unknown, use: unknown, issuerZip: string): { customer: SimCustomer; use: string } {
  if (!isObject(raw)) throw new SimInvalid('customer', '"customer" is required');
  const legalName = typeof raw.legal_name === 'string' ? raw.legal_name.trim() : '';
  if (!legalName) throw new SimInvalid('customer.legal_name', '"customer.legal_name" is required');
  if (REGIMEN_SOCIETARIO.test(legalName))
    throw new SimInvalid('customer.legal_name', 'El nombre no debe incluir el régimen societario (por ejemplo «S.A. de C.V.»)');
  const taxId = String(raw.tax_id ?? '')
    .trim()
    .toUpperCase();
  const parsed = Rfc.parseOrNull(taxId);
  if (!parsed || (taxId !== Rfc.RFC_GENERIC && taxId !== Rfc.RFC_FOREIGN && !parsed.doesCheckSumMatch()))
    throw new SimInvalid('customer.tax_id', 'El RFC del receptor no es válido');
  const taxSystem = String(raw.tax_system ?? '');
  if (!isRegimenFiscal(taxSystem))
    throw new SimInvalid('customer.tax_system', 'El régimen fiscal no está en el catálogo c_RegimenFiscal del SAT');
  const address = isObject(raw.address) ? raw.address : {};
  const zip = String(address.zip ?? '');
  if (!isPostalCode(zip)) throw new SimInvalid('customer.address.zip', 'El código postal del receptor debe tener 5 dígitos');
  const useCode = typeof use === 'string' ? use : 'G01';
  if (taxId === PUBLICO_EN_GENERAL.rfc) {
    // SAT's rules for the público en general as receptor.
    if (legalName.toUpperCase() !== PUBLICO_EN_GENERAL.nombre)
      throw new SimInvalid('customer.legal_name', `Con el RFC genérico el nombre debe ser «${PUBLICO_EN_GENERAL.nombre}»`);
    if (taxSystem !== PUBLICO_EN_GENERAL.regimen)
      throw new SimInvalid('customer.tax_system', 'Con el RFC genérico el régimen fiscal debe ser 616');
    if (useCode !== PUBLICO_EN_GENERAL.uso) throw new SimInvalid('use', 'Con el RFC genérico el uso del CFDI debe ser S01');
    if (zip !== issuerZip)
      throw new SimInvalid('customer.address.zip', 'Con el RFC genérico el código postal debe ser el lugar de expedición');
  } else {
    const kind = rfcPersonKind(taxId);
    const regimen = REGIMENES_FISCALES.find((r) => r.code === taxSystem);
    if (kind.ok && regimen && !regimen.applies.includes(kind.kind))
      throw new SimInvalid(
        'customer.tax_system',
        `El régimen fiscal ${taxSystem} no aplica a una persona ${kind.kind === 'moral' ? 'moral' : 'física'}`,
      );
  }
  if (!usoAllowed(useCode, taxSystem)) throw new SimInvalid('use', `El uso del CFDI ${useCode} no aplica al régimen fiscal ${taxSystem}`);
  const email = typeof raw.email === 'string' && raw.email ? raw.email : null;
  return {
    customer: { legal_name: legalName.toUpperCase(), tax_id: taxId, tax_system: taxSystem, email, address: { zip, country: 'MEX' } },
    use: useCode,
  };
}

export function validPeriodicity(raw: unknown): keyof typeof GLOBAL_PERIODICITIES {
  if (typeof raw !== 'string' || !(raw in GLOBAL_PERIODICITIES))
    throw new SimInvalid('periodicity', '"periodicity" must be one of [day, week, fortnight, month, two_months]');
  return raw as keyof typeof GLOBAL_PERIODICITIES;
}

export function validMonths(raw: unknown, periodicity: string): string {
  const months = String(raw ?? '');
  const n = Number(months);
  if (!/^\d{2}$/.test(months) || n < 1 || n > 18) throw new SimInvalid('months', 'El mes no está en el catálogo c_Meses del SAT');
  if ((periodicity === 'two_months') !== n > 12) throw new SimInvalid('months', 'Los meses no corresponden a la periodicidad');
  return months;
}
