import type { AppContext } from '../../http/context.ts';
import { durably } from '../../db/transact.ts';
import type { Pac } from '../../invoicing/pac.ts';
import { getFiscalSettings } from '../../model/fiscal-store.ts';
import type { InvoiceRow } from './invoice-store.ts';

/**
 * A stamped invoice's PDF and XML sent to the customer's e-mail through the server's mailer (SMTP,
 * or the outbox folder without it). A failure is recorded on the invoice, never undoes the stamp;
 * Facturación shows it and sends again.
 */
export async function sendInvoiceMail(ctx: AppContext, pac: Pac, row: InvoiceRow): Promise<void> {
  if (!row.email || !row.pac_invoice_id || !row.uuid) return;
  let error: string | null = null;
  try {
    const [pdf, xml, fiscal] = await Promise.all([
      pac.downloadPdf(row.pac_invoice_id),
      pac.downloadXml(row.pac_invoice_id),
      getFiscalSettings(ctx.db.db),
    ]);
    const issuer = fiscal.razonSocial || 'el negocio';
    await ctx.mailer.send({
      to: row.email,
      subject: `Tu factura de ${issuer} (folio fiscal ${row.uuid})`,
      text:
        `Hola ${row.legal_name}:\n\nTe enviamos la factura de tu consumo en ${issuer}.\n` +
        `Folio fiscal (UUID): ${row.uuid}\nTotal: $${(Number(row.total ?? 0) / 100).toFixed(2)} MXN\n\n` +
        `Van adjuntos el PDF y el XML.\n`,
      attachments: [
        { filename: `${row.uuid}.pdf`, content: pdf, contentType: 'application/pdf' },
        { filename: `${row.uuid}.xml`, content: xml, contentType: 'application/xml' },
      ],
    });
  } catch (e) {
    error = `No se pudo enviar el correo: ${(e as Error)?.message ?? String(e)}`.slice(0, 500);
  }
  const at = ctx.clock.now();
  await durably(ctx.db, (w) =>
    w
      .updateTable('invoices')
      .set(error ? { email_error: error, updated_at: at } : { emailed_at: at, email_error: null, updated_at: at })
      .where('id', '=', row.id)
      .execute(),
  );
}
