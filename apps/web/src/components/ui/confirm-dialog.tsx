import { useEffect, useRef, type ReactNode } from 'react';
import { Dialog } from './dialog.tsx';
import { Button, type ButtonProps } from './button.tsx';
import { t } from '../../lib/i18n/es-MX.ts';
import { CancelButton } from './cancel-button.tsx';

/**
 * The confirming tap, once per action: a double tap's second click can come before `busy` is
 * drawn, and would send the action again (a merge of an order already merged). The guard lifts on
 * the first render that is not busy: a form's refused check, or an action that failed, may go again.
 */
function useConfirmOnce(busy: boolean | undefined, onConfirm: () => void) {
  const fired = useRef(false);
  useEffect(() => {
    if (!busy) fired.current = false;
  });
  return () => {
    if (busy || fired.current) return;
    fired.current = true;
    onConfirm();
  };
}

/**
 * A question with Cancelar and one confirming button. The body is a plain `message`, or any
 * `children` (a small form: the quantity dialog); `danger` paints the button for what cannot be
 * undone. The confirming button takes the focus unless the body has a field that should.
 */
export function ConfirmDialog({
  open,
  title,
  message,
  children,
  confirmLabel = t.app.confirm,
  danger,
  variant = danger ? 'danger' : 'primary',
  focusConfirm = true,
  className,
  busy,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  message?: string;
  children?: ReactNode;
  confirmLabel?: string;
  danger?: boolean;
  variant?: ButtonProps['variant'];
  focusConfirm?: boolean;
  className?: string;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const confirm = useConfirmOnce(busy, onConfirm);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      locked={busy}
      className={className}
      footer={
        <>
          <CancelButton onClick={onClose} disabled={busy} />
          <Button variant={variant} onClick={confirm} disabled={busy} data-autofocus={focusConfirm || undefined}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {message !== undefined && <p className="text-slate-700">{message}</p>}
      {children}
    </Dialog>
  );
}
