import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { CancelOrderBodySchema, type Order } from '@comanda/contract';
import { activeItems } from '@comanda/domain';
import { errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useZodForm } from '../../lib/use-zod-form.ts';
import { reasonInput } from './reason-form-fields.tsx';
import type { OrderService } from './service-api.ts';

/** "Cancelar orden": an empty order is cancelled on confirm; one with items asks a reason, then an admin PIN. */
export function useCancelOrder(order: Order, service: OrderService, onClose: () => void) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const hasItems = activeItems(order.items).length > 0;
  const [askPin, setAskPin] = useState(false);
  // An order with items needs a reason (the contract's "reasonRequired" when blank), then an admin PIN.
  const form = useZodForm({
    initial: { reason: null as string | null, note: '' },
    schema: CancelOrderBodySchema,
    toInput: (values) => (hasItems ? reasonInput(values) : {}),
    onValid: () => void confirm(),
  });
  const close = () => {
    form.reset();
    setAskPin(false);
    onClose();
  };
  const done = () => {
    toast.success(t.voids.orderCancelled);
    close();
    navigate(pathname.startsWith('/admin') ? '/admin/home' : '/waiter/home');
  };
  const confirm = async () => {
    if (hasItems) return setAskPin(true);
    try {
      await service.cancel.mutateAsync({});
      done();
    } catch (err) {
      form.setError(errorMessage(err, t.voids.error));
    }
  };
  const { reason, note } = form.values;
  return {
    form,
    hasItems,
    askPin,
    busy: service.cancel.isPending,
    close,
    closePin: () => setAskPin(false),
    submitPin: async (pin: string) => {
      await service.cancel.mutateAsync({ reason: reason ?? undefined, note: note.trim() || null, pin });
      done();
    },
  };
}
