/** The Spanish refusals of the inventory's commands, shared by the server and the web. */
export const INVENTORY_MESSAGES = {
  insumoNotFound: 'El insumo no existe.',
  insumoNameTaken: 'Ya hay un insumo con ese nombre.',
  presentationNotFound: 'La presentación no existe.',
  warehouseNotFound: 'El almacén no existe.',
  productNotFound: 'El producto no existe.',
  optionNotFound: 'La opción de modificador no existe.',
  sameWarehouse: 'El traspaso necesita dos almacenes distintos.',
  quantityPositive: 'La cantidad debe ser mayor que cero.',
  reasonRequired: 'Escribe el motivo de la merma.',
  countEmpty: 'El conteo no tiene ningún insumo.',
  weighNeedsTare: 'Esa presentación no tiene tara ni densidad: no se puede pesar.',
  mappingNeeded: 'Asigna cada concepto de la factura a una presentación de insumo.',
  purchaseEmpty: 'La compra no tiene ningún renglón.',
} as const;
