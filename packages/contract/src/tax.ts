import { z } from 'zod';
import {
  DEFAULT_IVA_RATES,
  FISCAL_MESSAGES,
  GLOBAL_PERIODS,
  MAX_IEPS_RATE_BP,
  normalizeRfc,
  RAZON_SOCIAL_MAX,
  TAX_TREATMENTS,
  type TaxBreakdown,
} from '@comanda/domain';
import { CentsSchema } from './common.ts';

/** The domain's TaxBreakdown as it travels: frozen on a paid check (base + tax + ieps = amount). */
export const TaxTreatmentSchema = z.enum(TAX_TREATMENTS);

export const TaxGroupSchema = z.object({
  treatment: TaxTreatmentSchema,
  rateBp: z.number().int().min(0),
  base: CentsSchema,
  tax: CentsSchema,
  iepsRateBp: z.number().int().min(0).optional(),
  ieps: CentsSchema.optional(),
  amount: CentsSchema,
});

export const TaxBreakdownSchema = z.object({
  groups: z.array(TaxGroupSchema),
  base: CentsSchema,
  tax: CentsSchema,
  ieps: CentsSchema.optional(),
  amount: CentsSchema,
  derived: z.boolean(),
});
// The schema's output is the domain's type, field for field.
export type TaxBreakdownWire = z.infer<typeof TaxBreakdownSchema>;
const sameShape: TaxBreakdown = null as unknown as TaxBreakdownWire;
void sameShape;

/** GET /api/orders/:orderId/taxes: an open check's breakdown as its close would freeze it now (a paid one: its frozen one). */
export const OrderTaxesResponseSchema = z.object({ taxBreakdown: TaxBreakdownSchema });
export type OrderTaxesResponse = z.infer<typeof OrderTaxesResponseSchema>;

/** Configuración › Datos fiscales. */
export const FiscalSettingsSchema = z.object({
  rfc: z.string(),
  razonSocial: z.string(),
  regimenFiscal: z.string(),
  lugarExpedicion: z.string(),
  defaultIvaRate: z.union([z.literal(16), z.literal(8)]),
  ticketSeries: z.string(),
  facturaGlobal: z.enum(GLOBAL_PERIODS),
});
export type FiscalSettingsResponse = z.infer<typeof FiscalSettingsSchema>;

/** The form's fields; the rules across them (RFC check digit, régimen for the person) are the server's. */
export const FiscalSettingsBodySchema = z.strictObject({
  rfc: z.string().max(20).transform(normalizeRfc),
  razonSocial: z.string().trim().min(1, FISCAL_MESSAGES.razonSocialRequired).max(RAZON_SOCIAL_MAX, FISCAL_MESSAGES.razonSocialTooLong),
  regimenFiscal: z.string().trim().max(3, FISCAL_MESSAGES.regimenUnknown),
  // Checked with the rest of the data by the server (422), in the domain's words.
  lugarExpedicion: z.string().trim().max(10, FISCAL_MESSAGES.postalCode),
  defaultIvaRate: z
    .number({ error: FISCAL_MESSAGES.ivaRate })
    .refine((n): n is (typeof DEFAULT_IVA_RATES)[number] => (DEFAULT_IVA_RATES as readonly number[]).includes(n), FISCAL_MESSAGES.ivaRate),
  ticketSeries: z
    .string()
    .trim()
    .transform((s) => s.toUpperCase())
    .pipe(z.string().regex(/^[A-Z0-9]{1,10}$/, FISCAL_MESSAGES.series)),
  /** The factura global's period; kept as it was when not sent. */
  facturaGlobal: z.enum(GLOBAL_PERIODS).optional(),
});
export type FiscalSettingsBody = z.infer<typeof FiscalSettingsBodySchema>;

/** A product's tax fields, as the product form sends them. */
export const ProductTaxFieldsSchema = {
  taxTreatment: TaxTreatmentSchema.optional(),
  satProductKey: z
    .string()
    .trim()
    .regex(/^\d{8}$/, FISCAL_MESSAGES.productKey)
    .optional(),
  satUnitKey: z
    .string()
    .trim()
    .transform((s) => s.toUpperCase())
    .pipe(z.string().regex(/^[A-Z0-9]{2,3}$/, FISCAL_MESSAGES.unitKey))
    .optional(),
  iepsRateBp: z
    .number()
    .int(FISCAL_MESSAGES.iepsRate)
    .min(1, FISCAL_MESSAGES.iepsRate)
    .max(MAX_IEPS_RATE_BP, FISCAL_MESSAGES.iepsRate)
    .nullable()
    .optional(),
};
