import { useEffect, useState } from 'react';
import { Minus, Plus } from 'lucide-react';
import { VoidItemBodySchema, type OrderItem } from '@comanda/contract';
import { voidNeedsAdminPin } from '@comanda/domain';
import { PinDialog } from '../../components/pin-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { Label } from '../../components/ui/input.tsx';
import { errorMessage } from '../../lib/api.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { VoidReasonFields } from './void-reason-picker.tsx';
import { CancelButton } from '../../components/ui/cancel-button.tsx';
import { useZodForm } from '../../lib/use-zod-form.ts';

export interface VoidRequest {
  quantity: number;
  reason: string;
  note: string | null;
  pin?: string;
}

/**
 * Cancel units of one line: how many (a stepper up to the line's quantity), why (the admin's
 * list) and an optional note; an item the station already prepared then asks an admin PIN.
 */
export function VoidItemDialog({
  item,
  onClose,
  onSubmit,
}: {
  item: OrderItem | null;
  onClose: () => void;
  /** Resolves when the server accepted the void; a rejection's message is shown. */
  onSubmit: (request: VoidRequest) => Promise<unknown>;
}) {
  const [busy, setBusy] = useState(false);
  const [askPin, setAskPin] = useState(false);
  const form = useZodForm({
    initial: { units: 1, reason: null as string | null, note: '' },
    schema: VoidItemBodySchema,
    toInput: ({ units, reason, note }) => ({ quantity: units, reason: reason ?? '', note: note.trim() || null }),
    onValid: (body) => void send({ quantity: body.quantity, reason: body.reason, note: body.note ?? null }),
  });
  const { units, reason, note } = form.values;
  const { reset } = form;
  useEffect(() => {
    if (!item) return;
    reset();
    setAskPin(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new item opens a fresh form; reset is new each render
  }, [item]);
  if (!item) return null;
  const needsPin = voidNeedsAdminPin(item.status);
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
  return (
    <>
      <Dialog
        open={!askPin}
        onClose={onClose}
        title={t.voids.voidTitle}
        locked={busy}
        className="max-w-md"
        variant="sheet"
        footer={
          <>
            <CancelButton onClick={onClose} disabled={busy} />
            <Button variant="danger" onClick={form.submit} disabled={busy} data-testid="void-confirm">
              {t.voids.confirmVoid}
            </Button>
          </>
        }
      >
        <div className="space-y-4">
          <p className="text-sm text-slate-700">{t.voids.voidDescription(item.productName)}</p>
          <div>
            <Label htmlFor="void-units">{t.voids.units}</Label>
            <div className="flex items-center gap-2">
              <Button
                variant="outline"
                size="icon"
                aria-label={t.quantity.minus}
                disabled={units <= 1}
                onClick={() => form.set('units', units - 1)}
              >
                <Minus className="h-4 w-4" aria-hidden />
              </Button>
              <output id="void-units" className="w-14 text-center text-lg font-semibold tabular-nums" aria-live="polite">
                {units}
              </output>
              <Button
                variant="outline"
                size="icon"
                aria-label={t.quantity.plus}
                disabled={units >= item.quantity}
                onClick={() => form.set('units', units + 1)}
              >
                <Plus className="h-4 w-4" aria-hidden />
              </Button>
              <span className="text-sm text-slate-600">{t.voids.unitsOf(item.quantity)}</span>
            </div>
          </div>
          <VoidReasonFields
            id="void-note"
            reason={reason}
            onReason={(chosen) => {
              form.set('reason', chosen);
              form.setError(null);
            }}
            note={note}
            onNote={(text) => form.set('note', text)}
          />
          {needsPin && <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">{t.voids.needsPin}</p>}
          <FormError message={form.error} />
        </div>
      </Dialog>
      <PinDialog
        open={askPin}
        title={t.voids.pinTitle}
        description={t.voids.pinVoid(units, item.productName)}
        onClose={() => setAskPin(false)}
        onSubmit={async (pin) => {
          if (reason) await onSubmit({ quantity: units, reason, note: note.trim() || null, pin });
        }}
      />
    </>
  );
}
