import { z } from 'zod';

/** The owner's menu sheet as text (the browser reads the chosen file); 1 MB is far above 2,000 rows. */
export const MenuImportBodySchema = z.strictObject({
  csv: z.string().min(1).max(1_000_000),
  /** true: check and count only, nothing is written (the preview before "Importar"). */
  dryRun: z.boolean().default(false),
});
export type MenuImportBody = z.infer<typeof MenuImportBodySchema>;

export const MenuImportResultSchema = z.object({
  applied: z.boolean(),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  errors: z.array(z.object({ line: z.number().int(), message: z.string() })),
});
export type MenuImportResult = z.infer<typeof MenuImportResultSchema>;
