export const PIN_LENGTH = 4;

export const PIN_MESSAGES = {
  empty: 'Por favor ingresa el PIN',
  tooShort: 'El PIN debe tener al menos 4 dígitos',
  wrong: 'PIN incorrecto',
  notAdmin: 'PIN válido, pero el usuario no tiene permisos. Solo administradores pueden eliminar items.',
} as const;

const PIN_PATTERN = /^\d{4}$/;

export function isValidPin(s: string): boolean {
  return PIN_PATTERN.test(s);
}

/**
 * What the PIN dialog says before looking anything up. The keypad only types
 * digits and stops at four, so anything else (pasted text, five digits) cannot
 * belong to a user and reads as a wrong PIN.
 */
export function pinInputError(pin: string): string | null {
  if (pin === '') return PIN_MESSAGES.empty;
  if (isValidPin(pin)) return null;
  return pin.length < PIN_LENGTH ? PIN_MESSAGES.tooShort : PIN_MESSAGES.wrong;
}

/** Keypad input: digits only, at most four. */
export function sanitizePinInput(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, PIN_LENGTH);
}

export const QUANTITY_ERROR = 'La cantidad debe ser mayor a 0';
export const MIN_QUANTITY = 1;
/** Units per add (and so per line); see ORDER_LIMITS.maxLineQuantity. */
export const MAX_QUANTITY = 99;

export function isValidQuantity(n: number): boolean {
  return Number.isInteger(n) && n >= MIN_QUANTITY && n <= MAX_QUANTITY;
}

/** Table names and admin comments: blank means "not set", stored as null. */
export function normalizeOptionalText(s: string | null | undefined): string | null {
  const trimmed = s?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

export const PRODUCT_REQUIRED_ERROR = 'Nombre y precio requeridos';

/** A zero price is treated as forgotten, not as a free product (SPEC §5). */
export function validateProductInput(input: { name?: string | null; priceCents?: number | null }): string | null {
  const hasName = (input.name?.trim() ?? '') !== '';
  const price = input.priceCents;
  const hasPrice = typeof price === 'number' && Number.isSafeInteger(price) && price > 0;
  return hasName && hasPrice ? null : PRODUCT_REQUIRED_ERROR;
}
