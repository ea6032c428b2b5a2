import { toast as sonner } from 'sonner';

/**
 * The inventory's notices: at the bottom and short, so one never covers the tabs (Diferencias sits
 * where the app's top-right toasts land on a 1024 px tablet) nor lingers over the next row.
 */
const OPTIONS = { position: 'bottom-center', duration: 2500 } as const;

export const toast = {
  success: (message: string) => sonner.success(message, OPTIONS),
  error: (message: string) => sonner.error(message, OPTIONS),
};
