import { SELF_INVOICE_TEXT, selfInvoiceDate, type SelfInvoiceLine } from '@comanda/domain';
import { useBusinessZone } from '../../lib/dates.ts';

export interface SelfInvoiceProps {
  line: SelfInvoiceLine | null;
  /** The page's QR as SVG markup, drawn by the server; null while the receipt is queued. */
  qrSvg: string | null;
}

/** The ticket's invitation to invoice online: the page's QR, its key and until when; a note while queued. */
export function TicketSelfInvoice({ line, qrSvg }: SelfInvoiceProps) {
  const zone = useBusinessZone();
  if (!line) return null;
  if (line.state === 'queued')
    return (
      <p className="text-center text-[11px]" data-testid="self-invoice">
        {SELF_INVOICE_TEXT.queued}
      </p>
    );
  return (
    <div className="flex flex-col items-center gap-1 text-center" data-testid="self-invoice">
      {qrSvg && (
        <img
          src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrSvg)}`}
          alt={SELF_INVOICE_TEXT.qrAlt}
          width={128}
          height={128}
          className="h-32 w-32"
        />
      )}
      <p className="font-bold break-all">{SELF_INVOICE_TEXT.key(line.key)}</p>
      <p>{SELF_INVOICE_TEXT.until(selfInvoiceDate(line.expiresAt, zone))}</p>
    </div>
  );
}
