/**
 * Texts of the contract that screens show on their own. Kept free of zod, so that a screen importing
 * only a text (the message catalogue, loaded on every route) does not bring the schemas with it.
 */
export const USER_MESSAGES = {
  emailTaken: 'El correo ya está registrado',
  pinTaken: 'El PIN ya está en uso',
  cannotDeactivateSelf: 'No puedes desactivar tu propia cuenta',
  invalidLink: 'El enlace no es válido o ha expirado',
  passwordTooShort: 'La contraseña debe tener al menos 8 caracteres',
  pinFormat: 'El PIN debe tener 4 dígitos',
  nameRequired: 'Nombre requerido',
} as const;

export const TABLE_NUMBER_ERROR = 'El número de mesa debe ser un entero entre 0 y 999';
