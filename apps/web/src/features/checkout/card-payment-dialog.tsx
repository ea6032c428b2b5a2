import type { PaymentMethod } from '@comanda/domain';

export interface CardPaymentDialogProps {
  open: boolean;
  orderId: string;
  method: Extract<PaymentMethod, 'tarjeta' | 'transferencia'>;
  tipBps: number;
  peopleCount: number;
  /** Total the screen shows, in centavos; the server recomputes and decides. */
  expectedTotal: number;
  onClose: () => void;
  onPaid: () => void;
}

// Placeholder: the card-terminals feature owns this dialog (select-terminal … confirm-close).
export function CardPaymentDialog({ open }: CardPaymentDialogProps) {
  if (!open) return null;
  return null;
}
