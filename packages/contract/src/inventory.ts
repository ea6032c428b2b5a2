import { z } from 'zod';
import { CONSUMPTION_UNITS } from '@comanda/domain';
import { IdSchema, InputCentsSchema, InstantSchema, IsoDateSchema } from './common.ts';

/** The bar's inventory (docs/decisions/0055-inventory-ledger.md). Quantities are integers in the insumo's unit. */
const NAME_ERROR = 'Escribe el nombre';
const name = z.string({ error: NAME_ERROR }).trim().min(1, NAME_ERROR).max(80, 'El nombre es demasiado largo');
const qty = z.number().int().min(0).max(1_000_000_000);
const positiveQty = z.number().int().min(1, 'La cantidad debe ser mayor que cero').max(1_000_000_000);

export const ConsumptionUnitSchema = z.enum(CONSUMPTION_UNITS);

export const PresentationSchema = z.object({
  id: IdSchema,
  name: z.string(),
  content: z.number().int(),
  tareG: z.number().int().nullable(),
  densityMgPerMl: z.number().int().nullable(),
  lastCostCents: z.number().int().nullable(),
});
export type Presentation = z.infer<typeof PresentationSchema>;

export const InsumoSchema = z.object({
  id: IdSchema,
  name: z.string(),
  unit: ConsumptionUnitSchema,
  minStock: z.number().int(),
  pourSize: z.number().int().nullable(),
  lastCostCents: z.number().int().nullable(),
  lastCostContent: z.number().int().nullable(),
  active: z.boolean(),
  /** Stock per warehouse id: the ledger's sum. */
  stock: z.record(z.string(), z.number().int()),
  presentations: z.array(PresentationSchema),
});
export type Insumo = z.infer<typeof InsumoSchema>;

export const WarehouseSchema = z.object({ id: IdSchema, name: z.string() });
export type Warehouse = z.infer<typeof WarehouseSchema>;

export const InsumosResponseSchema = z.object({ insumos: z.array(InsumoSchema), warehouses: z.array(WarehouseSchema) });
export const InsumoResponseSchema = z.object({ insumo: InsumoSchema });

export const PresentationBodySchema = z.strictObject({
  id: IdSchema.optional(),
  name,
  content: positiveQty,
  tareG: z.number().int().min(0).max(100_000).nullable().default(null),
  densityMgPerMl: z.number().int().min(100).max(5_000).nullable().default(null),
});

export const InsumoBodySchema = z.strictObject({
  name,
  unit: ConsumptionUnitSchema,
  minStock: qty.default(0),
  pourSize: positiveQty.nullable().default(null),
  presentations: z.array(PresentationBodySchema).max(20).default([]),
});
export type InsumoBody = z.infer<typeof InsumoBodySchema>;

export const RecipeItemSchema = z.strictObject({ insumoId: IdSchema, amount: qty });
export const RecipeBodySchema = z.strictObject({ items: z.array(RecipeItemSchema).max(30) });
/** A product's recipe; autoAgotado: the inventory marks it agotado when the barra cannot make it (omitted: unchanged). */
export const ProductRecipeBodySchema = RecipeBodySchema.extend({ autoAgotado: z.boolean().optional() });
export type ProductRecipeBody = z.infer<typeof ProductRecipeBodySchema>;
export const RecipesResponseSchema = z.object({
  products: z.array(
    z.object({
      productId: IdSchema,
      items: z.array(z.object({ insumoId: IdSchema, amount: z.number().int() })),
      autoAgotado: z.boolean(),
    }),
  ),
  options: z.array(z.object({ optionId: IdSchema, items: z.array(z.object({ insumoId: IdSchema, amount: z.number().int() })) })),
});
export type RecipesResponse = z.infer<typeof RecipesResponseSchema>;

export const PurchaseLineBodySchema = z.strictObject({
  presentationId: IdSchema,
  /** Closed presentations bought (bottles, boxes). */
  units: positiveQty,
  unitCostCents: InputCentsSchema,
  ivaCents: InputCentsSchema.default(0),
  description: z.string().trim().max(200).optional(),
});
export const PurchaseBodySchema = z.strictObject({
  warehouseId: IdSchema.default('bodega'),
  supplierName: z.string().trim().max(200).nullable().default(null),
  supplierRfc: z.string().trim().max(13).nullable().default(null),
  note: z.string().trim().max(200).nullable().default(null),
  lines: z.array(PurchaseLineBodySchema).min(1, 'La compra no tiene ningún renglón').max(200),
});
export type PurchaseBody = z.infer<typeof PurchaseBodySchema>;

export const PurchaseSchema = z.object({
  id: IdSchema,
  warehouseId: IdSchema,
  supplierName: z.string().nullable(),
  supplierRfc: z.string().nullable(),
  invoiceUuid: z.string().nullable(),
  subtotalCents: z.number().int(),
  ivaCents: z.number().int(),
  createdAt: InstantSchema,
  createdByName: z.string(),
  lines: z.array(
    z.object({
      presentationId: IdSchema,
      insumoId: IdSchema,
      description: z.string(),
      units: z.number().int(),
      qty: z.number().int(),
      unitCostCents: z.number().int(),
    }),
  ),
});
export type Purchase = z.infer<typeof PurchaseSchema>;
export const PurchaseResponseSchema = z.object({ purchase: PurchaseSchema });
export const PurchasesResponseSchema = z.object({ purchases: z.array(PurchaseSchema) });

export const CfdiBodySchema = z.strictObject({
  xml: z.string().min(1, 'Adjunta el XML de la factura').max(2_000_000, 'El XML es demasiado grande'),
  /** Per concept (in the invoice's order): the presentation it is; null to leave it out of the purchase. */
  mappings: z.array(IdSchema.nullable()).max(500).optional(),
  warehouseId: IdSchema.default('bodega'),
});
export const CfdiPreviewSchema = z.object({
  uuid: z.string().nullable(),
  rfc: z.string(),
  supplierName: z.string(),
  concepts: z.array(
    z.object({
      claveProdServ: z.string(),
      description: z.string(),
      quantity: z.number().int(),
      unitValueCents: z.number().int(),
      ivaCents: z.number().int(),
      /** The presentation remembered for this supplier's concept; null: not mapped yet. */
      presentationId: IdSchema.nullable(),
    }),
  ),
});
export type CfdiPreview = z.infer<typeof CfdiPreviewSchema>;
export const CfdiPreviewResponseSchema = z.object({ invoice: CfdiPreviewSchema });

export const TransferBodySchema = z.strictObject({
  from: IdSchema.default('bodega'),
  to: IdSchema.default('barra'),
  lines: z
    .array(z.strictObject({ insumoId: IdSchema, qty: positiveQty }))
    .min(1)
    .max(200),
});
export const MermaBodySchema = z.strictObject({
  warehouseId: IdSchema.default('barra'),
  insumoId: IdSchema,
  qty: positiveQty,
  reason: z
    .string({ error: 'Escribe el motivo de la merma' })
    .trim()
    .min(1, 'Escribe el motivo de la merma')
    .max(120, 'El motivo es demasiado largo'),
});

export const CountLineBodySchema = z.strictObject({
  insumoId: IdSchema,
  /** Closed presentations on the shelf. */
  closed: z
    .array(z.strictObject({ presentationId: IdSchema, units: qty }))
    .max(20)
    .default([]),
  /** Open bottles: weighed in grams, or estimated in tenths. */
  open: z
    .array(
      z.strictObject({
        presentationId: IdSchema,
        grossG: z.number().int().min(0).max(100_000).optional(),
        tenths: z.number().int().min(0).max(10).optional(),
      }),
    )
    .max(50)
    .default([]),
  /** Anything counted straight in the insumo's unit (limones sueltos). */
  loose: qty.default(0),
});
export const CountBodySchema = z.strictObject({
  warehouseId: IdSchema.default('barra'),
  note: z.string().trim().max(200).nullable().default(null),
  lines: z.array(CountLineBodySchema).min(1, 'El conteo no tiene ningún insumo').max(500),
});
export type CountBody = z.infer<typeof CountBodySchema>;
export const CountSchema = z.object({
  id: IdSchema,
  warehouseId: IdSchema,
  countedByName: z.string(),
  createdAt: InstantSchema,
  lines: z.array(z.object({ insumoId: IdSchema, theoretical: z.number().int(), counted: z.number().int(), adjustment: z.number().int() })),
});
export type StockCount = z.infer<typeof CountSchema>;
export const CountResponseSchema = z.object({ count: CountSchema });

export const VarianceQuerySchema = z.strictObject({
  date: IsoDateSchema.optional(),
  from: IsoDateSchema.optional(),
  to: IsoDateSchema.optional(),
  warehouseId: IdSchema.default('barra'),
});
export const VarianceRowSchema = z.object({
  insumoId: IdSchema,
  name: z.string(),
  unit: ConsumptionUnitSchema,
  opening: z.number().int(),
  received: z.number().int(),
  removed: z.number().int(),
  closing: z.number().int(),
  theoretical: z.number().int(),
  real: z.number().int(),
  variance: z.number().int(),
  pourTenths: z.number().int().nullable(),
  costCents: z.number().int().nullable(),
});
export type VarianceReportRow = z.infer<typeof VarianceRowSchema>;
export const VarianceResponseSchema = z.object({
  from: InstantSchema,
  to: InstantSchema,
  rows: z.array(VarianceRowSchema),
  /**
   * Real variance per station: each station's sales go to its own warehouse (the barra's is the
   * barra), so its counts and purchases give a real consumption to set against its theory.
   */
  byStation: z.array(
    z.object({
      station: z.string(),
      warehouseId: IdSchema,
      warehouseName: z.string(),
      theoreticalCostCents: z.number().int(),
      varianceCostCents: z.number().int(),
      rows: z.array(VarianceRowSchema),
    }),
  ),
  /**
   * Per waiter and station, only the theoretical consumption of the lines they sold (no count
   * belongs to one person): by recipe, in pours and at last cost, largest first.
   */
  byWaiter: z.array(
    z.object({
      basis: z.literal('theoretical'),
      waiterName: z.string(),
      station: z.string(),
      /** Sum over the poured insumos, in tenths of a pour. */
      pourTenths: z.number().int(),
      costCents: z.number().int(),
      items: z.array(z.object({ insumoId: IdSchema, name: z.string(), unit: ConsumptionUnitSchema, theoretical: z.number().int() })),
    }),
  ),
  /**
   * Per preparer and station, the same theory of the lines each user marked listo (the last such
   * move in the audit trail, domain preparerOf); lines never marked listo under preparerId null.
   */
  byPreparer: z.array(
    z.object({
      basis: z.literal('theoretical'),
      preparerId: z.string().nullable(),
      preparerName: z.string(),
      station: z.string(),
      pourTenths: z.number().int(),
      costCents: z.number().int(),
      items: z.array(z.object({ insumoId: IdSchema, name: z.string(), unit: ConsumptionUnitSchema, theoretical: z.number().int() })),
    }),
  ),
});
export type VarianceResponse = z.infer<typeof VarianceResponseSchema>;

export const LowStockResponseSchema = z.object({
  items: z.array(
    z.object({ insumoId: IdSchema, name: z.string(), unit: ConsumptionUnitSchema, stock: z.number().int(), minStock: z.number().int() }),
  ),
});
export type LowStockResponse = z.infer<typeof LowStockResponseSchema>;
