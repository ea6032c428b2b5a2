import { lazy, type ComponentProps } from 'react';
import type * as Sonner from 'sonner';

/**
 * What the app imports as `sonner` (vite.config.ts points every other module's `sonner` here):
 * the same `toast` and `Toaster`, with the library itself loaded once the first screen is up
 * (its module injects its style sheet when it runs, which restyles the whole page) or at the
 * first toast, whichever comes first. A toast asked for before it has loaded is shown as soon as
 * it has, with the id it was given or one of its own (the id is returned at once, as sonner does).
 * The toasts' host mounts after the first screen (app/providers.tsx); sonner shows it the toasts
 * that were created before it.
 */

type Toast = typeof Sonner.toast;
type Data = Parameters<Toast>[1];
type Message = Parameters<Toast>[0];
type Id = string | number;

let sonner: typeof Sonner | null = null;
let loading: Promise<typeof Sonner> | null = null;
const waiting: ((real: Toast) => void)[] = [];
let next = 0;

export function loadToasts(): Promise<typeof Sonner> {
  loading ??= import('sonner').then((module) => {
    sonner = module;
    for (const call of waiting.splice(0)) call(module.toast);
    return module;
  });
  return loading;
}

function later(call: (real: Toast) => void): void {
  if (sonner) call(sonner.toast);
  else {
    waiting.push(call);
    void loadToasts();
  }
}

type Kind = 'success' | 'error' | 'info' | 'warning' | 'message' | 'loading';

function show(kind: Kind | null, message: Message, data?: Data): Id {
  if (sonner) return kind ? sonner.toast[kind](message, data) : sonner.toast(message, data);
  const id = data?.id ?? `toast-${++next}`;
  later((real) => {
    if (kind) real[kind](message, { ...data, id });
    else real(message, { ...data, id });
  });
  return id;
}

const base = (message: Message, data?: Data) => show(null, message, data);

export const toast = Object.assign(base, {
  success: (message: Message, data?: Data) => show('success', message, data),
  error: (message: Message, data?: Data) => show('error', message, data),
  info: (message: Message, data?: Data) => show('info', message, data),
  warning: (message: Message, data?: Data) => show('warning', message, data),
  message: (message: Message, data?: Data) => show('message', message, data),
  loading: (message: Message, data?: Data) => show('loading', message, data),
  dismiss: (id?: Id): Id | undefined => {
    if (sonner) return sonner.toast.dismiss(id);
    later((real) => real.dismiss(id));
    return id;
  },
  custom: (...args: Parameters<Toast['custom']>) => {
    const id = args[1]?.id ?? `toast-${++next}`;
    if (sonner) return sonner.toast.custom(args[0], { ...args[1], id });
    later((real) => real.custom(args[0], { ...args[1], id }));
    return id;
  },
  promise: (...args: Parameters<Toast['promise']>) => {
    later((real) => void real.promise(...args));
    return undefined;
  },
  getHistory: () => sonner?.toast.getHistory() ?? [],
  getToasts: () => sonner?.toast.getToasts() ?? [],
}) as unknown as Toast;

/** sonner's `Toaster`, loaded with the library. */
export const Toaster = lazy(() => loadToasts().then((module) => ({ default: module.Toaster })));
export type ToasterProps = ComponentProps<typeof Sonner.Toaster>;
