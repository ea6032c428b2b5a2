import type { Cents } from '@comanda/domain';
import { z } from 'zod';

/**
 * Integer centavos: the only money unit that crosses the API. Responses present whatever the
 * database may hold (any safe integer ≥ 0), so a big order can never turn a read into a 500;
 * the order limits (ORDER_LIMITS) keep stored amounts far below this. Its output is the domain's
 * branded `Cents`: the last check (a safe integer) always holds after the ones before it, so
 * it changes no answer; it only carries the brand to every reader of the contract.
 */
export const CentsSchema = z
  .number()
  .int()
  .min(0)
  .max(Number.MAX_SAFE_INTEGER)
  .refine((n): n is Cents => Number.isSafeInteger(n));
/** Money a person types into a request: up to $100,000,000.00. */
export const InputCentsSchema = z.number().int().min(0).max(100_000_000_00);
export const IdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'Identificador inválido');
/** Field texts that several schemas share: one wording each. */
export const FIELD_MESSAGES = {
  invalidDate: 'Fecha inválida',
  invalidEmail: 'Email inválido',
  invalidUrl: 'URL inválida',
  noteTooLong: 'La nota es demasiado larga',
  reasonTooLong: 'El motivo es demasiado largo',
  invalidPort: 'Puerto inválido',
} as const;
export const IsoDateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, FIELD_MESSAGES.invalidDate);
/** Instants travel as epoch milliseconds (UTC). */
export const InstantSchema = z.number().int();

export const ErrorResponseSchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

export const OkSchema = z.object({ ok: z.literal(true) });

export const ROLES = ['admin', 'waiter', 'kitchen', 'barra'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;
