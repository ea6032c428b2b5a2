import { REGIMENES_FISCALES, USOS_CFDI } from '@comanda/domain';
import type { SimInvoice, SimReceipt } from './store.ts';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function shell(title: string, body: string): string {
  return `<!doctype html><html lang="es-MX"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:1.5rem auto;padding:0 1rem;color:#1f2328}
label{display:block;margin:.75rem 0 .25rem;font-weight:600}input,select{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
button{margin-top:1rem;padding:.75rem 1rem;font-size:1rem;width:100%}.error{color:#b42318;font-weight:600}.muted{color:#57606a}</style></head>
<body><p class="muted">Simulador de Facturapi · portal de autofactura</p>${body}</body></html>`;
}

export interface PageValues {
  tax_id?: string;
  legal_name?: string;
  zip?: string;
  tax_system?: string;
  use?: string;
  email?: string;
}

/** The self-invoice page of one receipt: its total and a form for the customer's fiscal data. */
export function receiptPage(receipt: SimReceipt, issuerName: string, values: PageValues = {}, error: string | null = null): string {
  const expires = new Date(receipt.expires_at);
  const option = (code: string, name: string, chosen: string | undefined) =>
    `<option value="${code}"${chosen === code ? ' selected' : ''}>${code} · ${esc(name)}</option>`;
  const form = `<h1>Factura tu consumo</h1>
<p>${esc(issuerName)} · Ticket ${receipt.folio_number} · Total <strong>$${receipt.total.toFixed(2)}</strong></p>
<p class="muted">Puedes facturar hasta el ${expires.toISOString().slice(0, 10)}.</p>
${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}
<form method="post">
<label for="tax_id">RFC</label><input id="tax_id" name="tax_id" required autocomplete="off" value="${esc(values.tax_id ?? '')}">
<label for="legal_name">Nombre o razón social (como en tu Constancia de Situación Fiscal)</label><input id="legal_name" name="legal_name" required value="${esc(values.legal_name ?? '')}">
<label for="zip">Código postal</label><input id="zip" name="zip" required inputmode="numeric" maxlength="5" value="${esc(values.zip ?? '')}">
<label for="tax_system">Régimen fiscal</label><select id="tax_system" name="tax_system" required><option value="">Elige…</option>${REGIMENES_FISCALES.map((r) => option(r.code, r.name, values.tax_system)).join('')}</select>
<label for="use">Uso del CFDI</label><select id="use" name="use" required>${USOS_CFDI.map((u) => option(u.code, u.name, values.use ?? 'G03')).join('')}</select>
<label for="email">Correo electrónico</label><input id="email" name="email" type="email" value="${esc(values.email ?? '')}">
<button type="submit">Facturar</button></form>`;
  return shell('Factura tu consumo', form);
}

export function invoicedPage(receipt: SimReceipt, invoice: SimInvoice): string {
  return shell(
    'Factura emitida',
    `<h1>Factura emitida</h1><p>Ticket ${receipt.folio_number} · ${esc(invoice.customer.legal_name)} (${esc(invoice.customer.tax_id)})</p>
<p>Folio fiscal (UUID): <strong data-uuid>${invoice.uuid}</strong></p>
<p><a href="${receipt.key}/pdf">Descargar PDF</a> · <a href="${receipt.key}/xml">Descargar XML</a></p>`,
  );
}

export function closedPage(message: string): string {
  return shell('Factura tu consumo', `<h1>Factura tu consumo</h1><p class="error" role="alert">${esc(message)}</p>`);
}
