import { useEffect, useState } from 'react';
import { VoidItemBodySchema, type OrderItem } from '@comanda/contract';
import { voidNeedsAdminPin } from '@comanda/domain';
import { errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useZodForm } from '../../lib/use-zod-form.ts';
import { reasonInput } from './reason-form-fields.tsx';

export interface VoidRequest {
  quantity: number;
  reason: string;
  note: string | null;
  pin?: string;
}

/**
 * The void dialog's form (units, reason, note) checked by the void request's schema, and its send:
 * at once, or after an admin PIN when the station already prepared the item.
 */
export function useVoidItem(item: OrderItem | null, onSubmit: (request: VoidRequest) => Promise<unknown>) {
  const [busy, setBusy] = useState(false);
  const [askPin, setAskPin] = useState(false);
  const form = useZodForm({
    initial: { units: 1, reason: null as string | null, note: '' },
    schema: VoidItemBodySchema,
    toInput: (values) => ({ quantity: values.units, ...reasonInput(values) }),
    onValid: (body) => void send({ quantity: body.quantity, reason: body.reason, note: body.note ?? null }),
  });
  const { reset } = form;
  useEffect(() => {
    if (!item) return;
    reset();
    setAskPin(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new item opens a fresh form; reset is new each render
  }, [item]);
  const needsPin = item !== null && voidNeedsAdminPin(item.status);

  const send = async (body: VoidRequest) => {
    if (needsPin) {
      setAskPin(true);
      return;
    }
    setBusy(true);
    try {
      await onSubmit(body);
    } catch (err) {
      form.setError(errorMessage(err, t.voids.error));
    } finally {
      setBusy(false);
    }
  };

  return {
    form,
    busy,
    askPin,
    needsPin,
    closePin: () => setAskPin(false),
    submitPin: async (pin: string) => {
      if (form.values.reason) await onSubmit({ quantity: form.values.units, ...reasonInput(form.values), pin });
    },
  };
}
