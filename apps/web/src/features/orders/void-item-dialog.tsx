import { Minus, Plus } from 'lucide-react';
import type { OrderItem } from '@comanda/contract';
import { PinDialog } from '../../components/pin-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { FormError } from '../../components/ui/form-error.tsx';
import { Label } from '../../components/ui/input.tsx';
import { t } from '../../lib/i18n/es-MX.ts';
import { CancelButton } from '../../components/ui/cancel-button.tsx';
import { ReasonFormFields } from './reason-form-fields.tsx';
import { useVoidItem, type VoidRequest } from './use-void-item.ts';

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
  const v = useVoidItem(item, onSubmit);
  const { form, busy } = v;
  if (!item) return null;
  const { units } = form.values;
  return (
    <>
      <Dialog
        open={!v.askPin}
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
          <UnitsStepper units={units} max={item.quantity} onUnits={(n) => form.set('units', n)} />
          <ReasonFormFields id="void-note" form={form} />
          {v.needsPin && <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">{t.voids.needsPin}</p>}
          <FormError message={form.error} />
        </div>
      </Dialog>
      <PinDialog
        open={v.askPin}
        title={t.voids.pinTitle}
        description={t.voids.pinVoid(units, item.productName)}
        onClose={v.closePin}
        onSubmit={v.submitPin}
      />
    </>
  );
}

/** How many of the line's units to cancel, from one up to all of them. */
function UnitsStepper({ units, max, onUnits }: { units: number; max: number; onUnits: (units: number) => void }) {
  return (
    <div>
      <Label htmlFor="void-units">{t.voids.units}</Label>
      <div className="flex items-center gap-2">
        <Button variant="outline" size="icon" aria-label={t.quantity.minus} disabled={units <= 1} onClick={() => onUnits(units - 1)}>
          <Minus className="h-4 w-4" aria-hidden />
        </Button>
        <output id="void-units" className="w-14 text-center text-lg font-semibold tabular-nums" aria-live="polite">
          {units}
        </output>
        <Button variant="outline" size="icon" aria-label={t.quantity.plus} disabled={units >= max} onClick={() => onUnits(units + 1)}>
          <Plus className="h-4 w-4" aria-hidden />
        </Button>
        <span className="text-sm text-slate-600">{t.voids.unitsOf(max)}</span>
      </div>
    </div>
  );
}
