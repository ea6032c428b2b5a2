import type { ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { t } from '../../lib/i18n/es-MX.ts';

// When a print copy sits directly in <body>, the app itself is dropped from the printout, so the
// paper holds the receipt alone and not the screen behind it.
const PRINT_ONLY_RECEIPT = '@media print { body:has(> .print-area) > #root { display: none !important; } }';
const PAGE_STYLE_ID = 'ticket-page-size';
const MM_PER_PX = 25.4 / 96;

/**
 * The copy of a ticket that the printer gets, rendered into <body> so no layout wrapper can
 * shift it. On screen it is laid out at 80 mm but invisible, so its height can be measured;
 * in print, index.css makes it the only visible thing.
 */
export function TicketPrintCopy({ children }: { children: ReactNode }) {
  return createPortal(
    <div className="print-area invisible fixed top-0 left-0 w-[80mm] bg-white" aria-hidden="true" data-testid="ticket-print-copy">
      <style>{PRINT_ONLY_RECEIPT}</style>
      {children}
    </div>,
    document.body,
  );
}

/**
 * Opens the browser's print dialog in this window (no pop-up). The page is sized to the receipt
 * (80 mm wide, as long as the ticket) so a roll printer does not feed a whole sheet.
 * Alerts about the pop-up blocker only if printing itself fails.
 */
export function printTicket(): void {
  try {
    const copy = document.querySelector<HTMLElement>('[data-testid="ticket-print-copy"]');
    const heightMm = copy ? Math.ceil(copy.getBoundingClientRect().height * MM_PER_PX) + 2 : 0;
    let style = document.getElementById(PAGE_STYLE_ID);
    if (!style) {
      style = document.createElement('style');
      style.id = PAGE_STYLE_ID;
      document.head.append(style);
    }
    style.textContent = heightMm > 0 ? `@media print { @page { size: 80mm ${heightMm}mm; margin: 0; } }` : '';
    window.print();
  } catch {
    window.alert(t.checkout.printBlocked);
  }
}
