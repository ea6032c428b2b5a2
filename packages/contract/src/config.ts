import { z } from 'zod';
import { FIELD_MESSAGES } from './common.ts';

const optionalText = (max: number) => z.string().trim().max(max);
/** Longest logo given as a data: URL (a small PNG for the receipt printer). */
export const LOGO_DATA_URL_MAX = 48 * 1024;

/** Business information shown on the login page, headers and tickets. */
export const GeneralConfigSchema = z.object({
  name: z.string(),
  logoUrl: z.string(),
  address: z.string(),
  phone: z.string(),
  timezone: z.string(),
  shiftStartHour: z.number().int().min(0).max(23),
  shiftEndHour: z.number().int().min(0).max(23),
});
export type GeneralConfig = z.infer<typeof GeneralConfigSchema>;

export const GeneralConfigBodySchema = z.strictObject({
  name: optionalText(120),
  // An http(s) address (up to 2048 characters), or a PNG pasted as a data: URL: the receipt
  // printers can print that one (up to 48 KB: requests are capped at 64 KB).
  logoUrl: optionalText(LOGO_DATA_URL_MAX).refine(
    (v) => v === '' || (/^https?:\/\//.test(v) && v.length <= 2048) || /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/.test(v),
    FIELD_MESSAGES.invalidUrl,
  ),
  address: optionalText(300),
  phone: optionalText(40),
  timezone: z
    .string()
    .max(64)
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('es-MX', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'Zona horaria inválida')
    .optional(),
  shiftStartHour: z.number().int().min(0).max(23).optional(),
  shiftEndHour: z.number().int().min(0).max(23).optional(),
});
export type GeneralConfigBody = z.infer<typeof GeneralConfigBodySchema>;

/** Public subset: what the login page may read before sign-in. */
export const PublicConfigSchema = GeneralConfigSchema.pick({ name: true, logoUrl: true });
