import { z } from 'zod';
import { FIELD_MESSAGES, IdSchema, InstantSchema } from './common.ts';

/** Network thermal printers (ESC/POS over TCP) and what they printed. */
export const PrinterRoleSchema = z.enum(['cocina', 'barra', 'caja']);
export type PrinterRole = z.infer<typeof PrinterRoleSchema>;
export const PrinterStatusSchema = z.enum(['listo', 'sin_conexion', 'error']);
export type PrinterStatus = z.infer<typeof PrinterStatusSchema>;
export const PrinterWidthSchema = z.union([z.literal(80), z.literal(58)]);

export const PrinterSchema = z.object({
  id: z.string(),
  name: z.string(),
  host: z.string(),
  port: z.number().int(),
  role: PrinterRoleSchema,
  width: PrinterWidthSchema,
  enabled: z.boolean(),
  emulated: z.boolean(),
  status: PrinterStatusSchema,
  lastError: z.string().nullable(),
  lastErrorAt: InstantSchema.nullable(),
  /** Jobs not printed yet. */
  pendingJobs: z.number().int(),
});
export type Printer = z.infer<typeof PrinterSchema>;
export const PrintersResponseSchema = z.object({ printers: z.array(PrinterSchema) });
export const PrinterResponseSchema = z.object({ printer: PrinterSchema });

/** A host name or IPv4/IPv6 address on the LAN (no scheme, no port). */
const HostSchema = z
  .string()
  .trim()
  .min(1, 'Indica la dirección de la impresora')
  .max(253)
  .regex(/^[A-Za-z0-9.:-]+$/, 'Dirección inválida: usa una IP (192.168.1.50) o un nombre');

const PrinterFields = {
  name: z.string().trim().min(1, 'Indica un nombre').max(60),
  host: HostSchema,
  port: z.number().int().min(1, FIELD_MESSAGES.invalidPort).max(65535, FIELD_MESSAGES.invalidPort),
  role: PrinterRoleSchema,
  width: PrinterWidthSchema,
  enabled: z.boolean(),
};
export const PrinterBodySchema = z.strictObject({
  ...PrinterFields,
  port: PrinterFields.port.default(9100),
  width: PrinterFields.width.default(80),
  enabled: PrinterFields.enabled.default(true),
});
export type PrinterBody = z.input<typeof PrinterBodySchema>;
/** Only the fields sent change (no defaults: a patch of `enabled` must not reset the port). */
export const PrinterPatchSchema = z.strictObject(PrinterFields).partial();
export const PrinterIdParamsSchema = z.strictObject({ printerId: IdSchema });

/** Items a printer has not printed for longer than the alert time (SPEC: a visible alert). */
export const PrintAlertSchema = z.object({
  printerId: z.string(),
  printerName: z.string(),
  role: PrinterRoleSchema,
  status: PrinterStatusSchema,
  lastError: z.string().nullable(),
  since: InstantSchema,
  items: z.array(z.object({ table: z.string(), quantity: z.number().int(), name: z.string(), notes: z.string().nullable() })),
});
export type PrintAlert = z.infer<typeof PrintAlertSchema>;
export const PrintAlertsResponseSchema = z.object({ alerts: z.array(PrintAlertSchema) });

/** What each emulated printer received, decoded to text (demo mode). */
export const EmulatedPrinterSchema = z.object({
  printerId: z.string(),
  name: z.string(),
  role: PrinterRoleSchema,
  /** online, paper-out (answers "no paper"), offline (answers "offline"), off (not listening: sin conexión). */
  state: z.enum(['online', 'paper-out', 'offline', 'off']),
  tickets: z.array(z.object({ n: z.number().int(), text: z.string(), complete: z.boolean(), at: InstantSchema })),
});
export const EmulatorResponseSchema = z.object({ emulators: z.array(EmulatedPrinterSchema) });
export type EmulatedPrinter = z.infer<typeof EmulatedPrinterSchema>;

/** Demo: steer an emulated printer (switch it off, take its paper) to see how Comanda copes. */
export const EmulatorStateBodySchema = z.strictObject({ state: z.enum(['online', 'paper-out', 'off']) });

export const ReprintResponseSchema = z.object({ jobs: z.number().int() });
