import { Dialog } from './dialog.tsx';
import { Button } from './button.tsx';
import { t } from '../../lib/i18n/es-MX.ts';
import { CancelButton } from './cancel-button.tsx';

export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel = t.app.confirm,
  danger,
  busy,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  message: string;
  confirmLabel?: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      locked={busy}
      footer={
        <>
          <CancelButton onClick={onClose} disabled={busy} />
          <Button variant={danger ? 'danger' : 'primary'} onClick={onConfirm} disabled={busy} data-autofocus>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <p className="text-slate-700">{message}</p>
    </Dialog>
  );
}
