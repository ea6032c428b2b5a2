import { toast as sonner } from 'sonner';

/**
 * The inventory's notices at the bottom centre, so one never covers the tabs (Diferencias sits
 * where the app's top-right notices land on a 1024 px tablet); they last the app's 4 s.
 */
const OPTIONS = { position: 'bottom-center' } as const;

export const toast = {
  success: (message: string) => sonner.success(message, OPTIONS),
  error: (message: string) => sonner.error(message, OPTIONS),
};
