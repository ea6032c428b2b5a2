import { z } from 'zod';
import { IdSchema } from './common.ts';
import { MeResponseSchema } from './auth.ts';

/** Idle lock choices for a shared device, in seconds (0: off). */
export const IDLE_LOCK_CHOICES = [0, 120, 300, 600] as const;

export const EnrollSharedDeviceBodySchema = z.strictObject({
  name: z.string().trim().min(1, 'Escribe un nombre para el dispositivo').max(60, 'El nombre es demasiado largo (máximo 60 caracteres)'),
  idleLockSeconds: z
    .number()
    .int()
    .refine((v) => (IDLE_LOCK_CHOICES as readonly number[]).includes(v), 'Bloqueo automático no válido'),
});
export type EnrollSharedDeviceBody = z.infer<typeof EnrollSharedDeviceBodySchema>;

export const SharedDeviceSchema = z.object({
  id: IdSchema,
  name: z.string(),
  createdBy: z.string(),
  createdAt: z.number(),
  lastSeenAt: z.number().nullable(),
  revokedAt: z.number().nullable(),
  idleLockSeconds: z.number(),
  /** True for the device this browser is enrolled as. */
  current: z.boolean(),
});
export type SharedDevice = z.infer<typeof SharedDeviceSchema>;

export const SharedDeviceResponseSchema = z.object({ device: SharedDeviceSchema });
export const SharedDeviceListResponseSchema = z.object({ devices: z.array(SharedDeviceSchema) });
export type SharedDeviceList = z.infer<typeof SharedDeviceListResponseSchema>;

export const SharedDeviceParamsSchema = z.strictObject({ deviceId: IdSchema });

/** Public: is this browser an enrolled shared device? */
export const CurrentSharedDeviceResponseSchema = z.object({
  enrolled: z.boolean(),
  name: z.string().nullable(),
  idleLockSeconds: z.number(),
});
export type CurrentSharedDevice = z.infer<typeof CurrentSharedDeviceResponseSchema>;

/** The roles a PIN can sign in on a shared device: the admin signs in with the password. */
export const PIN_SIGN_IN_ROLES = ['waiter', 'kitchen', 'barra'] as const;

/** Who can sign in on this shared device: active staff with a PIN, by name (empty for any other browser). */
export const SharedDevicePersonSchema = z.object({ id: IdSchema, displayName: z.string(), role: z.enum(PIN_SIGN_IN_ROLES) });
export type SharedDevicePerson = z.infer<typeof SharedDevicePersonSchema>;
export const SharedDevicePeopleResponseSchema = z.object({ people: z.array(SharedDevicePersonSchema) });
export type SharedDevicePeople = z.infer<typeof SharedDevicePeopleResponseSchema>;

/** A PIN switch names the person first: only that person's PIN is checked. */
export const PinLoginBodySchema = z.strictObject({ userId: IdSchema, pin: z.string().max(16) });
export type PinLoginBody = z.infer<typeof PinLoginBodySchema>;
export const PinLoginResponseSchema = MeResponseSchema;
