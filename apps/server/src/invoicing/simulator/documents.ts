import type { SimInvoice, SimIssuer } from './store.ts';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const money = (n: number) => n.toFixed(2);

/** A CFDI 4.0 as the PAC hands it over: Comprobante, emisor, receptor, conceptos, impuestos and the TimbreFiscalDigital. */
export function invoiceXml(invoice: SimInvoice, issuer: SimIssuer): string {
  const periodicity = { day: '01', week: '02', fortnight: '03', month: '04', two_months: '05' } as Record<string, string>;
  const global = invoice.global
    ? `<cfdi:InformacionGlobal Periodicidad="${periodicity[invoice.global.periodicity] ?? '04'}" Meses="${invoice.global.months}" Año="${invoice.global.year}"/>`
    : '';
  const conceptos = invoice.items
    .map((item) => {
      const price = item.product.price;
      return `<cfdi:Concepto ClaveProdServ="${item.product.product_key}" Cantidad="${item.quantity}" ClaveUnidad="${item.product.unit_key}" Descripcion="${esc(item.product.description)}" ValorUnitario="${price}" Importe="${money(price * item.quantity)}" ObjetoImp="${item.product.taxability}"/>`;
    })
    .join('');
  const s = invoice.stamp;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>` +
    `<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital" Version="4.0" ` +
    `Serie="${esc(invoice.series)}" Folio="${invoice.folio_number}" Fecha="${s.date}" FormaPago="${invoice.payment_form}" MetodoPago="PUE" ` +
    `Total="${money(invoice.total)}" Moneda="MXN" TipoDeComprobante="I" Exportacion="01" LugarExpedicion="${issuer.zip}" Sello="${s.signature}">` +
    global +
    `<cfdi:Emisor Rfc="${issuer.rfc}" Nombre="${esc(issuer.legalName)}" RegimenFiscal="${issuer.taxSystem}"/>` +
    `<cfdi:Receptor Rfc="${invoice.customer.tax_id}" Nombre="${esc(invoice.customer.legal_name)}" DomicilioFiscalReceptor="${invoice.customer.address.zip}" ` +
    `RegimenFiscalReceptor="${invoice.customer.tax_system}" UsoCFDI="${invoice.use}"/>` +
    `<cfdi:Conceptos>${conceptos}</cfdi:Conceptos>` +
    `<cfdi:Complemento><tfd:TimbreFiscalDigital Version="1.1" UUID="${invoice.uuid}" FechaTimbrado="${s.date}" RfcProvCertif="${s.rfc_provider_cert}" ` +
    `SelloCFD="${s.signature}" NoCertificadoSAT="${s.sat_cert_number}" SelloSAT="${s.sat_signature}"/></cfdi:Complemento>` +
    `</cfdi:Comprobante>`
  );
}

/** A one-page PDF naming the CFDI (the real PAC's is a designed document; this one only has to be a PDF). */
export function invoicePdf(invoice: SimInvoice, issuer: SimIssuer): Buffer {
  const lines = [
    `${issuer.legalName} (${issuer.rfc})`,
    `Factura ${invoice.series}-${invoice.folio_number}  UUID ${invoice.uuid}`,
    `Receptor: ${invoice.customer.legal_name} (${invoice.customer.tax_id})`,
    `Total: $${money(invoice.total)} MXN  ${invoice.status === 'canceled' ? 'CANCELADA' : ''}`,
  ];
  const ascii = (t: string) =>
    t
      .normalize('NFD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/[()\\]/g, ' ');
  const text = lines.map((l, i) => `BT /F1 11 Tf 40 ${760 - i * 18} Td (${ascii(l)}) Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(text)} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(body));
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
