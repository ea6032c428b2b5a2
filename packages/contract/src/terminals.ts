import { z } from 'zod';
import { CARD_PAYMENT_STATES, MAX_SPLIT_COUNT, MAX_TIP_BPS } from '@comanda/domain';
import { CentsSchema, FIELD_MESSAGES, IdSchema, InputCentsSchema, InstantSchema } from './common.ts';
import { OrderSchema } from './orders.ts';

/** Provider device ids look like 'PAX_A910__SMARTPOS1234567890'. */
export const TerminalIdSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'Terminal inválida');

/** A payment session's stored state; the states and their transitions live in the domain. */
export const CardPaymentStateSchema = z.enum(CARD_PAYMENT_STATES);
export type CardPaymentState = z.infer<typeof CardPaymentStateSchema>;

/** The dialog states of SPEC §4 that a session can put the dialog in. */
export const CardDialogStateSchema = z.enum([
  'select-terminal',
  'initial',
  'sending',
  'processing',
  'success',
  'rejected',
  'error',
  'confirm-close',
]);

export const CardMethodSchema = z.enum(['tarjeta', 'transferencia']);

export const CardPaymentSchema = z.object({
  id: IdSchema,
  orderId: IdSchema,
  terminalId: z.string(),
  method: CardMethodSchema,
  amount: CentsSchema,
  tipAmount: CentsSchema,
  tipBps: z.number().int(),
  peopleCount: z.number().int(),
  state: CardPaymentStateSchema,
  dialogState: CardDialogStateSchema,
  /** Why it failed, from the card terminal messages of SPEC §8; null while going or approved. */
  message: z.string().nullable(),
  providerPaymentId: z.string().nullable(),
  /** What the terminal charged, once approved (needs_review shows it for the admin to settle). */
  approvedAmount: CentsSchema.nullable(),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  createdAt: InstantSchema,
  updatedAt: InstantSchema,
});
export type CardPayment = z.infer<typeof CardPaymentSchema>;

/** Only what a person chooses travels; the server computes the amount from the items. */
export const CreateCardPaymentBodySchema = z.strictObject({
  orderId: IdSchema,
  terminalId: TerminalIdSchema,
  method: CardMethodSchema,
  tipBps: z.number().int().min(0).max(MAX_TIP_BPS),
  /** The table's guests, only when the payment changes them; omitted: they stay as set on the order. */
  peopleCount: z.number().int().min(1).max(999).optional(),
  /** What the checkout's calculator divided the check by. */
  splitCount: z.number().int().min(1).max(MAX_SPLIT_COUNT).optional(),
  /** A part of the balance to charge (mixed payments); omitted: the whole balance, closing the order. */
  amount: InputCentsSchema.min(1).optional(),
});
export type CreateCardPaymentBody = z.infer<typeof CreateCardPaymentBodySchema>;

export const CardPaymentParamsSchema = z.object({ id: IdSchema });
export const CardPaymentQuerySchema = z.object({ orderId: IdSchema });
export const CardPaymentResponseSchema = z.object({ payment: CardPaymentSchema });
/** The live attempt a reloaded checkout resumes, and the order's approved charges still to settle. */
export const ActiveCardPaymentResponseSchema = z.object({
  payment: CardPaymentSchema.nullable(),
  needsReview: z.array(CardPaymentSchema),
});

/** An approved charge that did not close its order, as the admin's review list shows it. */
export const CardReviewSchema = CardPaymentSchema.extend({
  tableNumber: z.number().int(),
  tableName: z.string().nullable(),
  waiterName: z.string().nullable(),
  orderStatus: z.enum(['activo', 'pagado', 'cancelado']),
  /** The order's items now (non-deleted), to compare with what the terminal charged. */
  orderSubtotal: CentsSchema,
});
export type CardReview = z.infer<typeof CardReviewSchema>;
export const CardReviewListResponseSchema = z.object({ reviews: z.array(CardReviewSchema) });

/** 'Marcar como reembolsado en la terminal': an optional note of how it was refunded. */
export const RefundCardPaymentBodySchema = z.strictObject({
  note: z.string().trim().max(300, FIELD_MESSAGES.noteTooLong).optional(),
});
export type RefundCardPaymentBody = z.infer<typeof RefundCardPaymentBodySchema>;
export const RecordCardPaymentResponseSchema = z.object({ payment: CardPaymentSchema, order: OrderSchema });

export const CardTerminalSchema = z.object({
  id: z.string(),
  name: z.string(),
  location: z.string().nullable(),
  storeId: z.string().nullable(),
  posId: z.string().nullable(),
  externalId: z.string().nullable(),
  operatingMode: z.string().nullable(),
  /** Enabled unless the stored map says explicitly false. */
  enabled: z.boolean(),
});
export type CardTerminal = z.infer<typeof CardTerminalSchema>;

export const TerminalListResponseSchema = z.object({ terminals: z.array(CardTerminalSchema) });
export const TerminalParamsSchema = z.object({ id: TerminalIdSchema });
export const SetTerminalEnabledBodySchema = z.strictObject({ enabled: z.boolean() });
export const TerminalResponseSchema = z.object({ terminal: CardTerminalSchema });

export const TerminalStatusSchema = z.object({
  /** demo: the built-in simulator (no MP_ACCESS_TOKEN); live: Mercado Pago. */
  mode: z.enum(['demo', 'live']),
  api: z.enum(['point', 'orders']),
  connected: z.boolean(),
  /** 'demo', or the first 15 characters of a TEST-/APP_USR- token; null otherwise. */
  token: z.string().nullable(),
  terminalCount: z.number().int().nullable(),
  message: z.string().nullable(),
});
export type TerminalStatus = z.infer<typeof TerminalStatusSchema>;

export const TestChargeBodySchema = z.strictObject({ terminalId: TerminalIdSchema });
export const TestChargeSchema = z.object({
  id: IdSchema,
  terminalId: z.string(),
  amount: CentsSchema,
  externalReference: z.string(),
  state: z.enum(['testing', 'success', 'error']),
  message: z.string().nullable(),
});
export type TestCharge = z.infer<typeof TestChargeSchema>;
export const TestChargeResponseSchema = z.object({ test: TestChargeSchema });
