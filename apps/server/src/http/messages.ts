/** The server's own generic texts (not tied to a feature); feature texts live beside their rules. */
export const HTTP_MESSAGES = {
  badRequest: 'Solicitud inválida',
  tooLarge: 'La solicitud es demasiado grande',
  unavailable: 'Servicio no disponible. Verifica tu conexión',
  unexpected: 'Ha ocurrido un error inesperado',
} as const;
