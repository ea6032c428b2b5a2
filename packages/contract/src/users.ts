import { z } from 'zod';
import { USER_MESSAGES } from './texts.ts';
import { FIELD_MESSAGES, IdSchema, InstantSchema, RoleSchema } from './common.ts';

/**
 * A sign-in back-off on the account (too many wrong passwords): `until` is the end of the
 * current wait (it may have passed: the next failure waits longer), `failures` how many led to it.
 */
export const UserLockSchema = z.object({ until: InstantSchema, failures: z.number().int().min(0) });
export type UserLock = z.infer<typeof UserLockSchema>;

/** A user as the admin sees it: never a password or PIN hash, only whether a PIN is set. */
export const UserSchema = z.object({
  id: IdSchema,
  email: z.string(),
  displayName: z.string(),
  role: RoleSchema,
  active: z.boolean(),
  hasPin: z.boolean(),
  hasPassword: z.boolean(),
  createdAt: InstantSchema,
  updatedAt: InstantSchema,
  /** In the admin's list (and after 'Desbloquear'): the account's sign-in back-off, null when none. */
  lock: UserLockSchema.nullable().optional(),
});
export type User = z.infer<typeof UserSchema>;

export const UsersResponseSchema = z.object({ users: z.array(UserSchema) });
export const UserResponseSchema = z.object({ user: UserSchema });

const PinSchema = z.string().regex(/^\d{4}$/, USER_MESSAGES.pinFormat);
const DisplayNameSchema = z.string().trim().min(1, USER_MESSAGES.nameRequired).max(120);

export const CreateUserBodySchema = z.strictObject({
  displayName: DisplayNameSchema,
  email: z.email(FIELD_MESSAGES.invalidEmail).max(254),
  role: RoleSchema,
  // Blank means "no PIN": the form's field is optional.
  pin: z.union([PinSchema, z.literal('')]).optional(),
});
export type CreateUserBody = z.infer<typeof CreateUserBodySchema>;

export const UpdateUserBodySchema = z.strictObject({
  displayName: DisplayNameSchema.optional(),
  role: RoleSchema.optional(),
  pin: PinSchema.nullable().optional(),
});
export type UpdateUserBody = z.infer<typeof UpdateUserBodySchema>;

export const UserActiveBodySchema = z.strictObject({ active: z.boolean() });

export const MessageResponseSchema = z.object({ ok: z.literal(true), message: z.string() });

export const ResetPasswordBodySchema = z.strictObject({
  token: z.string().min(1).max(200),
  password: z.string().min(8, USER_MESSAGES.passwordTooShort).max(1024),
});
export type ResetPasswordBody = z.infer<typeof ResetPasswordBodySchema>;

export const ResetTokenParamsSchema = z.strictObject({ token: z.string().min(1).max(200) });
export const ResetTokenInfoSchema = z.object({ email: z.string(), purpose: z.enum(['reset', 'invite']) });
export type ResetTokenInfo = z.infer<typeof ResetTokenInfoSchema>;

/** The account exists even when the invitation could not be sent; 'Restablecer' sends a new link. */
export const CreateUserResponseSchema = z.object({ user: UserSchema, inviteSent: z.boolean() });
