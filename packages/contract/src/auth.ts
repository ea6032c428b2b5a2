import { z } from 'zod';
import { FIELD_MESSAGES, IdSchema, RoleSchema } from './common.ts';

export const LoginBodySchema = z.strictObject({
  email: z.email(FIELD_MESSAGES.invalidEmail).max(254),
  password: z.string().min(1, 'Contraseña requerida').max(1024),
});
export type LoginBody = z.infer<typeof LoginBodySchema>;

export const SessionUserSchema = z.object({
  id: IdSchema,
  email: z.string(),
  displayName: z.string(),
  role: RoleSchema,
});
export type SessionUser = z.infer<typeof SessionUserSchema>;

export const MeResponseSchema = z.object({ user: SessionUserSchema });
