import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { X } from 'lucide-react';
import { cn } from './cn.ts';
import { t } from '../../lib/i18n/es-MX.ts';
import { useReachableScroll } from './scroll-area.tsx';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  footer?: ReactNode;
  /** While true, Escape and outside clicks do nothing (e.g. a request is in flight). */
  locked?: boolean;
  className?: string;
  /** 'sheet' slides from the bottom on small screens. */
  variant?: 'center' | 'sheet';
}

/** A tap on the backdrop this soon after opening is the second tap of the one that opened it: ignored. */
const BACKDROP_GRACE_MS = 500;

/** Modal dialog: focus moves in and is trapped, Escape and backdrop close it unless locked. */
export function Dialog({ open, onClose, title, children, footer, locked = false, className, variant = 'center' }: DialogProps) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLDivElement>(null);
  useReachableScroll(body, { labelledBy: titleId }, open);
  const lockedRef = useRef(locked);
  lockedRef.current = locked;
  const openedAt = useRef(0);
  useEffect(() => {
    if (open) openedAt.current = performance.now();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    const node = panel.current;
    const focusables = () =>
      [...(node?.querySelectorAll<HTMLElement>('button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])') ?? [])].filter(
        (el) => !el.hasAttribute('disabled'),
      );
    (node?.querySelector<HTMLElement>('[data-autofocus]') ?? focusables()[0] ?? node)?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !lockedRef.current) {
        e.stopPropagation();
        onClose();
      }
      if (e.key === 'Tab') {
        const list = focusables();
        if (!list.length) return;
        const first = list[0]!;
        const last = list[list.length - 1]!;
        if (e.shiftKey && document.activeElement === first) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && document.activeElement === last) {
          e.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = overflow;
      previous?.focus?.();
    };
  }, [open, onClose]);

  if (!open) return null;
  return createPortal(
    <div
      className={cn(
        'fixed inset-0 z-50 flex bg-slate-950/50 p-0 sm:p-4',
        variant === 'sheet' ? 'items-end sm:items-center sm:justify-center' : 'items-center justify-center p-4',
      )}
      onMouseDown={(e) => {
        if (e.target !== e.currentTarget || lockedRef.current) return;
        if (performance.now() - openedAt.current < BACKDROP_GRACE_MS) return;
        onClose();
      }}
    >
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={cn(
          'flex max-h-[92vh] w-full flex-col bg-white shadow-xl outline-none',
          variant === 'sheet' ? 'rounded-t-2xl sm:max-w-lg sm:rounded-2xl' : 'max-w-md rounded-2xl',
          className,
        )}
      >
        <div className="flex items-center justify-between gap-3 border-b border-slate-200 px-5 py-2">
          <h2 id={titleId} className="min-w-0 text-lg font-semibold break-words">
            {title}
          </h2>
          <button
            type="button"
            aria-label={t.app.close}
            disabled={locked}
            onClick={onClose}
            className="-mr-2 flex h-11 w-11 shrink-0 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-500 disabled:opacity-40"
          >
            <X className="h-5 w-5" />
          </button>
        </div>
        <div ref={body} className="overflow-y-auto px-5 py-4">
          {children}
        </div>
        {footer && <div className="flex justify-end gap-2 border-t border-slate-200 px-5 py-3">{footer}</div>}
      </div>
    </div>,
    document.body,
  );
}
