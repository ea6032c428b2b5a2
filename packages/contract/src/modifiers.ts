import { z } from 'zod';
import { CATEGORIES, isValidGroupRange, MAX_MODIFIER_OPTIONS } from '@comanda/domain';
import { CentsSchema, IdSchema, InputCentsSchema, InstantSchema } from './common.ts';

/** Modifier groups (decision 0026). */
export const ModifierOptionSchema = z.object({
  id: IdSchema,
  name: z.string(),
  priceDelta: CentsSchema,
  available: z.boolean(),
});
export type ModifierOption = z.infer<typeof ModifierOptionSchema>;

export const ModifierGroupSchema = z.object({
  id: IdSchema,
  name: z.string(),
  minSelect: z.number().int(),
  /** null: no upper limit. */
  maxSelect: z.number().int().nullable(),
  position: z.number().int(),
  options: z.array(ModifierOptionSchema),
  /** The products and whole categories the group is attached to. */
  productIds: z.array(z.string()),
  categories: z.array(z.string()),
  createdAt: InstantSchema,
  updatedAt: InstantSchema,
});
export type ModifierGroup = z.infer<typeof ModifierGroupSchema>;

export const ModifierGroupsResponseSchema = z.object({ groups: z.array(ModifierGroupSchema) });
export const ModifierGroupResponseSchema = z.object({ group: ModifierGroupSchema });

const NAME_ERROR = 'Escribe el nombre';
const name = z.string({ error: NAME_ERROR }).trim().min(1, NAME_ERROR).max(60, 'El nombre es demasiado largo');

export const ModifierOptionBodySchema = z.strictObject({
  /** An existing option keeps its id; a new one has none. */
  id: IdSchema.optional(),
  name,
  priceDelta: InputCentsSchema.default(0),
  available: z.boolean().default(true),
});

export const ModifierGroupBodySchema = z
  .strictObject({
    name,
    minSelect: z.number().int().min(0).max(MAX_MODIFIER_OPTIONS),
    maxSelect: z.number().int().min(1).max(MAX_MODIFIER_OPTIONS).nullable(),
    /** Where the group shows in the picker; a new group without one goes last, an edited one stays. */
    position: z.number().int().min(0).max(10_000).optional(),
    options: z.array(ModifierOptionBodySchema).min(1, 'Agrega al menos una opción').max(MAX_MODIFIER_OPTIONS, 'Demasiadas opciones'),
    productIds: z.array(IdSchema).max(500).default([]),
    categories: z.array(z.enum(CATEGORIES)).max(CATEGORIES.length).default([]),
  })
  .refine((b) => isValidGroupRange(b.minSelect, b.maxSelect), 'El mínimo no puede ser mayor que el máximo')
  .refine((b) => b.minSelect <= b.options.length, 'El mínimo no puede ser mayor que el número de opciones');
export type ModifierGroupBody = z.infer<typeof ModifierGroupBodySchema>;

export const ModifierAvailabilityBodySchema = z.strictObject({ available: z.boolean() });

/** What an order item keeps of each chosen option (its snapshot, like its name and price). */
export const ChosenModifierSchema = z.object({
  groupName: z.string(),
  optionName: z.string(),
  priceDelta: CentsSchema,
});
export type ChosenModifierDto = z.infer<typeof ChosenModifierSchema>;
