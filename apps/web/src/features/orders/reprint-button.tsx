import { ReprintResponseSchema } from '@comanda/contract';
import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Printer } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { errorMessage, post } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';

/** Prints the order's comandas again at each station, marked REIMPRESIÓN. */
export function ReprintButton({ orderId, disabled, className }: { orderId: string; disabled?: boolean; className?: string }) {
  const reprint = useMutation({
    mutationFn: async () => (await post(ReprintResponseSchema, `/api/orders/${orderId}/reprint`)).jobs,
    onSuccess: (jobs) => (jobs === 0 ? toast.warning(t.printers.reprintDone(0)) : toast.success(t.printers.reprintDone(jobs))),
    onError: (e) => toast.error(errorMessage(e, t.printers.reprintError)),
  });
  return (
    <Button variant="outline" className={className} disabled={disabled || reprint.isPending} onClick={() => reprint.mutate()}>
      <Printer className="h-4 w-4" aria-hidden />
      {t.printers.reprint}
    </Button>
  );
}
