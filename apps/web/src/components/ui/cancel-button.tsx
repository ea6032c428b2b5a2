import { Button } from './button.tsx';
import { t } from '../../lib/i18n/es-MX.ts';

/** A dialog's "Cancelar": closes it without doing anything; disabled while the dialog's action runs. */
export function CancelButton({ onClick, disabled }: { onClick: () => void; disabled?: boolean }) {
  return (
    <Button variant="outline" onClick={onClick} disabled={disabled}>
      {t.app.cancel}
    </Button>
  );
}
