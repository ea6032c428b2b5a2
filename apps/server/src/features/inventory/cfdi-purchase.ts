import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { parseScaled } from '@comanda/domain';
import { badRequest } from '../../http/errors.ts';

/**
 * A supplier's CFDI 4.0 invoice read for a purchase: the emisor, the TimbreFiscalDigital's UUID,
 * and each Concepto's ClaveProdServ, Descripcion, Cantidad, ValorUnitario and its IVA (Traslado
 * with Impuesto 002). Parsed by fast-xml-parser with the namespace prefixes (cfdi:, tfd:) dropped;
 * anything that is not a CFDI 4.0 is refused in Spanish and nothing is recorded.
 */

export interface CfdiConcept {
  claveProdServ: string;
  description: string;
  /** Whole presentations bought. */
  quantity: number;
  unitValueCents: number;
  ivaCents: number;
}

export interface CfdiInvoice {
  uuid: string | null;
  rfc: string;
  supplierName: string;
  concepts: CfdiConcept[];
}

export const CFDI_MESSAGES = {
  notXml: 'El archivo no es un XML válido.',
  notCfdi: 'El XML no es un CFDI: no tiene el nodo cfdi:Comprobante.',
  version: 'Solo se aceptan CFDI versión 4.0.',
  noEmisor: 'El CFDI no tiene el RFC del emisor.',
  noConcepts: 'El CFDI no tiene conceptos.',
  concept: (n: number, what: string) => `El concepto ${n} del CFDI tiene ${what} inválido.`,
  fractional: (n: number) => `El concepto ${n} del CFDI no es una cantidad entera de piezas: regístralo a mano.`,
} as const;

type Node = Record<string, unknown>;
const asArray = (v: unknown): Node[] => (Array.isArray(v) ? (v as Node[]) : v && typeof v === 'object' ? [v as Node] : []);
const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  parseAttributeValue: false,
  parseTagValue: false,
  processEntities: true,
  isArray: (name) => name === 'Concepto' || name === 'Traslado',
});

function cents(value: unknown, n: number, what: string): number {
  const c = parseScaled(text(value), 2);
  if (c === null || c < 0) throw badRequest(CFDI_MESSAGES.concept(n, what), 'cfdi_invalid');
  return c;
}

export function parseCfdi(xml: string): CfdiInvoice {
  if (XMLValidator.validate(xml) !== true) throw badRequest(CFDI_MESSAGES.notXml, 'cfdi_invalid');
  let doc: Node;
  try {
    doc = parser.parse(xml) as Node;
  } catch {
    throw badRequest(CFDI_MESSAGES.notXml, 'cfdi_invalid');
  }
  const comprobante = doc['Comprobante'] as Node | undefined;
  if (!comprobante || typeof comprobante !== 'object') throw badRequest(CFDI_MESSAGES.notCfdi, 'cfdi_invalid');
  if (text(comprobante['Version']) !== '4.0') throw badRequest(CFDI_MESSAGES.version, 'cfdi_version');
  const emisor = comprobante['Emisor'] as Node | undefined;
  const rfc = text(emisor?.['Rfc']).toUpperCase();
  if (!rfc) throw badRequest(CFDI_MESSAGES.noEmisor, 'cfdi_invalid');
  const conceptos = asArray((comprobante['Conceptos'] as Node | undefined)?.['Concepto']);
  if (conceptos.length === 0) throw badRequest(CFDI_MESSAGES.noConcepts, 'cfdi_invalid');
  const concepts = conceptos.map((c, i): CfdiConcept => {
    const n = i + 1;
    const qty = parseScaled(text(c['Cantidad']), 6);
    if (qty === null || qty <= 0) throw badRequest(CFDI_MESSAGES.concept(n, 'una cantidad'), 'cfdi_invalid');
    if (qty % 1_000_000 !== 0) throw badRequest(CFDI_MESSAGES.fractional(n), 'cfdi_fractional');
    const traslados = asArray(((c['Impuestos'] as Node | undefined)?.['Traslados'] as Node | undefined)?.['Traslado']);
    const iva = traslados.filter((t) => text(t['Impuesto']) === '002' && text(t['TipoFactor']) !== 'Exento');
    return {
      claveProdServ: text(c['ClaveProdServ']),
      description: text(c['Descripcion']),
      quantity: qty / 1_000_000,
      unitValueCents: cents(c['ValorUnitario'], n, 'un valor unitario'),
      ivaCents: iva.reduce((sum, t) => sum + cents(t['Importe'], n, 'un IVA'), 0),
    };
  });
  const complemento = asArray(comprobante['Complemento']);
  const timbre = complemento.map((c) => c['TimbreFiscalDigital'] as Node | undefined).find(Boolean);
  const uuid = text(timbre?.['UUID']).toUpperCase() || null;
  return { uuid, rfc, supplierName: text(emisor?.['Nombre']), concepts };
}
