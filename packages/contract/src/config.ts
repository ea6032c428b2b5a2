import { z } from 'zod';
import { FIELD_MESSAGES } from './common.ts';

const optionalText = (max: number) => z.string().trim().max(max);

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
  logoUrl: optionalText(2048).refine((v) => v === '' || /^https?:\/\//.test(v), FIELD_MESSAGES.invalidUrl),
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
