/**
 * Tables of the bar's inventory (migration 0033, docs/decisions/0055-inventory-ledger.md).
 * Quantities are integers in the insumo's consumption unit (ml, g, milli-pieces).
 */
export interface InventoryTables {
  warehouses: WarehousesTable;
  insumos: InsumosTable;
  insumo_presentations: InsumoPresentationsTable;
  product_recipes: ProductRecipesTable;
  modifier_recipes: ModifierRecipesTable;
  inventory_lines: InventoryLinesTable;
  stock_movements: StockMovementsTable;
  purchases: PurchasesTable;
  purchase_lines: PurchaseLinesTable;
  supplier_concepts: SupplierConceptsTable;
  stock_counts: StockCountsTable;
  stock_count_lines: StockCountLinesTable;
  product_auto_agotado: ProductAutoAgotadoTable;
  recipe_versions: RecipeVersionsTable;
}

export interface WarehousesTable {
  id: string;
  name: string;
  position: number;
  created_at: number;
  /** Migration 0036: the station whose sales this warehouse serves (null: none). */
  station: string | null;
}

export interface InsumosTable {
  id: string;
  name: string;
  unit: 'ml' | 'g' | 'pieza';
  min_stock: number;
  pour_size: number | null;
  last_cost_cents: number | null;
  last_cost_content: number | null;
  active: number;
  created_at: number;
  updated_at: number;
}

export interface InsumoPresentationsTable {
  id: string;
  insumo_id: string;
  name: string;
  content: number;
  tare_g: number | null;
  density_mg_ml: number | null;
  last_cost_cents: number | null;
  active: number;
  created_at: number;
}

export interface ProductRecipesTable {
  product_id: string;
  insumo_id: string;
  amount: number;
}

export interface ModifierRecipesTable {
  option_id: string;
  insumo_id: string;
  amount: number;
}

/** A line's per-unit recipe as JSON [{insumoId, amount}], frozen at the worker's first sight. */
export interface InventoryLinesTable {
  line_id: string;
  order_id: string;
  recipe: string;
  units: number;
  step: number;
  closed: number;
  waiter_id: string | null;
  waiter_name: string | null;
  station: string;
  sold_at: number;
  /** Migration 0036: of `units`, those posted as comps. */
  comp_units: number;
}

/** Migration 0036: a product's or a modifier option's whole recipe, appended with when it took effect. */
export interface RecipeVersionsTable {
  id: string;
  product_id: string | null;
  option_id: string | null;
  effective_from: number;
  /** JSON [{insumoId, amount}] per unit. */
  amounts: string;
  created_by: string | null;
}

export interface StockMovementsTable {
  id: string;
  at: number;
  warehouse_id: string;
  insumo_id: string;
  kind: 'sale' | 'void_restore' | 'comp' | 'merma' | 'purchase' | 'transfer_out' | 'transfer_in' | 'count_adjustment';
  qty: number;
  reason: string | null;
  line_id: string | null;
  purchase_id: string | null;
  count_id: string | null;
  transfer_id: string | null;
  source_key: string | null;
  waiter_id: string | null;
  station: string | null;
  actor_id: string | null;
  actor_name: string | null;
}

export interface PurchasesTable {
  id: string;
  warehouse_id: string;
  supplier_rfc: string | null;
  supplier_name: string | null;
  invoice_uuid: string | null;
  subtotal_cents: number;
  iva_cents: number;
  note: string | null;
  created_by: string;
  created_by_name: string;
  created_at: number;
}

export interface PurchaseLinesTable {
  id: string;
  purchase_id: string;
  presentation_id: string;
  insumo_id: string;
  description: string;
  units: number;
  qty: number;
  unit_cost_cents: number;
  iva_cents: number;
}

export interface SupplierConceptsTable {
  rfc: string;
  clave_prod_serv: string;
  description: string;
  presentation_id: string;
  updated_at: number;
}

export interface StockCountsTable {
  id: string;
  warehouse_id: string;
  note: string | null;
  counted_by: string;
  counted_by_name: string;
  created_at: number;
}

export interface StockCountLinesTable {
  count_id: string;
  insumo_id: string;
  theoretical: number;
  counted: number;
  adjustment: number;
  detail: string;
}

/** A product the inventory may mark agotado; state 0 idle, 1 marked by the inventory, 2 made available by someone. */
export interface ProductAutoAgotadoTable {
  product_id: string;
  state: number;
}
