import {
  ADJUSTMENT_MESSAGES,
  CHECK_MESSAGES,
  DRAWER_MESSAGES,
  LIMIT_MESSAGES,
  PARTIAL_PAYMENT_MESSAGES,
  PAYMENT_GATE_MESSAGES,
  PIN_MESSAGES,
  TAB_NAME_MESSAGES,
  TERMINAL_MESSAGES,
  VOID_MESSAGES,
} from '@comanda/domain';
import { FIELD_MESSAGES, USER_MESSAGES } from '@comanda/contract';

/** Texts several sections share: each is written once. */
const NOT_FOUND = {
  order: 'Orden no encontrada',
  table: 'Mesa no encontrada',
  item: ADJUSTMENT_MESSAGES.itemNotFound,
  product: 'Producto no encontrado',
  user: 'Usuario no encontrado',
} as const;

const SESSION = {
  unauthenticated: 'No hay usuario autenticado',
  forbidden: 'No tienes permisos para realizar esta acción',
  tooMany: 'Demasiados intentos. Intenta más tarde',
  unknownRole: 'Rol de usuario no reconocido',
  badOrigin: 'Origen no permitido',
} as const;

/**
 * The server's one message catalogue (Spanish, SPEC §8 where the spec names the text). A section a
 * feature owns is also exported beside its rules under its old name (e.g. CARD_MESSAGES); texts the
 * domain and the contract own (shared with the web) are referenced here, never retyped.
 */
export const MESSAGES = {
  /** Generic texts, not tied to a feature. */
  http: {
    badRequest: 'Solicitud inválida',
    tooLarge: 'La solicitud es demasiado grande',
    timeout: 'La solicitud tardó demasiado. Intenta de nuevo',
    unavailable: 'Servicio no disponible. Verifica tu conexión',
    unexpected: 'Ha ocurrido un error inesperado',
  },
  /** A disk that cannot take the data (503 to a request, /api/health's reason while it lasts). */
  storage: {
    full: 'El disco del servidor está lleno: no se guardó el cambio. Avisa al administrador para que libere espacio.',
    readOnly: 'La carpeta de datos del servidor es de solo lectura: no se guardó el cambio. Avisa al administrador.',
    denied: 'El servidor no puede abrir ni escribir sus archivos de datos: no se guardó el cambio. Avisa al administrador.',
    failing: 'Falló el disco del servidor al leer o escribir datos: no se guardó el cambio. Avisa al administrador.',
  },
  notFound: NOT_FOUND,
  session: SESSION,
  order: {
    notFound: NOT_FOUND.order,
    closed: 'La orden ya fue cerrada y no se puede modificar',
  },
  idempotency: {
    reused: 'La clave de idempotencia ya se usó con otra solicitud',
    inFlight: 'La solicitud anterior con esta clave sigue en curso. Intenta de nuevo.',
    applied: 'La solicitud con esta clave ya se aplicó, pero su respuesta se perdió. Actualiza para ver el resultado.',
    invalid: 'El encabezado Idempotency-Key no es válido',
  },
  orders: {
    notOwner: 'Esta mesa está asignada a otro mesero. Solo puedes trabajar en tus propias mesas.',
    adminCommentsOnlyAdmin: 'Solo un administrador puede editar los comentarios internos',
    itemNotFound: NOT_FOUND.item,
    itemAlreadyDeleted: 'El producto ya fue eliminado',
    productNotFound: NOT_FOUND.product,
  },
  checkout: {
    alreadyPaid: 'La orden ya fue pagada',
    cashShort: 'El monto recibido es menor al total',
    cashMissing: 'Ingresa el monto recibido',
  },
  card: {
    /** The one text of a charge still in flight (card_payment_in_progress and order_frozen alike). */
    inProgress: 'Hay un cobro con tarjeta en curso para esta orden. Espera a que termine o cancélalo.',
    stillOnTerminal: 'La terminal todavía tiene un cobro en curso para esta orden. Termínalo o cancélalo en la terminal.',
    notFound: 'Cobro no encontrado',
    terminalDisabled: 'La terminal está deshabilitada',
    providerUnavailable: 'No se pudo conectar con Mercado Pago',
    refunded: 'Cobro reembolsado en la terminal',
  },
  cardReview: {
    pending:
      'Hay un cobro con tarjeta aprobado por revisar en esta orden. Un administrador debe registrarlo como pago o marcarlo como reembolsado antes de cobrar de nuevo.',
    notPending: 'Este cobro ya no está por revisar',
    orderClosed: 'La orden ya está cerrada: este cobro solo puede marcarse como reembolsado en la terminal.',
  },
  testCharge: {
    success: '¡Pago de prueba exitoso! La terminal está funcionando correctamente.',
    cancelled: 'Pago cancelado por el usuario',
    processError: 'Error al procesar el pago de prueba',
    error: 'Error en la prueba de pago',
  },
  terminalSettings: {
    loadError: 'Error cargando terminales',
    refreshError: 'Error al cargar terminales',
    toggleError: 'Error al actualizar terminal',
    testNotFound: 'Prueba de pago no encontrada',
  },
  tables: {
    notFound: NOT_FOUND.table,
    openFailed: 'No se pudo abrir la mesa. Intenta de nuevo.',
    numberTaken: 'Ya existe una mesa con ese número',
    hasActiveOrder: 'No se puede eliminar una mesa con una orden activa',
    alreadyFree: 'La mesa ya está libre',
    releaseHasOrder: 'La mesa tiene una orden activa: cóbrala antes de liberar la mesa',
  },
  tabs: { tableNotFound: NOT_FOUND.table },
  tableService: {
    tableNotFound: NOT_FOUND.table,
    sameTable: 'La orden ya está en esa mesa',
    targetNotFree: 'La mesa destino ya está ocupada. Elige una mesa libre.',
    sourceHasPayments: 'Esta cuenta ya tiene pagos parciales: termina de cobrarla antes de unirla a otra mesa.',
    targetNotOccupied: 'La mesa destino no tiene una orden activa',
    targetChanged: 'La mesa destino cambió mientras movías. Intenta de nuevo.',
    waiterNotFound: 'Mesero no encontrado',
    sameWaiter: 'La mesa ya está asignada a ese mesero',
    pinRequired: 'Se requiere el PIN de un administrador para cambiar el mesero',
    itemNotInOrder: 'Un producto elegido ya no está en esta orden',
    itemDeleted: 'Un producto elegido fue eliminado',
    tooManyUnits: 'Las unidades elegidas ya no están en esta orden: alguien las movió o cambió. Revisa la orden e intenta de nuevo.',
    nothingToMerge: 'La orden no tiene productos para unir',
  },
  board: {
    itemNotFound: NOT_FOUND.item,
    itemDeleted: 'El producto fue eliminado y no se puede modificar',
    otherStation: 'Solo puedes actualizar productos de tu estación',
  },
  auth: {
    userNotFound: NOT_FOUND.user,
    wrongPassword: 'Contraseña incorrecta',
    inactive: 'Usuario inactivo, contacte al administrador',
    unknownRole: SESSION.unknownRole,
  },
  devices: {
    notEnrolled: 'Este dispositivo no está registrado como compartido. Entra con tu correo y contraseña.',
    alreadyEnrolled: 'Este navegador ya está registrado como dispositivo compartido. Revócalo antes de registrarlo de nuevo.',
    notFound: 'Dispositivo no encontrado',
    alreadyRevoked: 'Este dispositivo ya estaba revocado',
    adminByPassword: 'El administrador no entra con PIN en un dispositivo compartido. Entra con tu correo y contraseña.',
    personLocked: (name: string, wait: string) =>
      `Demasiados PIN incorrectos para ${name}. Espera ${wait} o pide a un administrador que lo desbloquee.`,
  },
  // Owned by the domain and the contract (the web shows the same texts).
  terminal: TERMINAL_MESSAGES,
  paymentGate: PAYMENT_GATE_MESSAGES,
  partialPayment: PARTIAL_PAYMENT_MESSAGES,
  adjustment: ADJUSTMENT_MESSAGES,
  check: CHECK_MESSAGES,
  tabName: TAB_NAME_MESSAGES,
  drawer: DRAWER_MESSAGES,
  void: VOID_MESSAGES,
  pin: PIN_MESSAGES,
  limit: LIMIT_MESSAGES,
  field: FIELD_MESSAGES,
  user: USER_MESSAGES,
  // Promotions.
  promotion: {
    notFound: 'Promoción no encontrada',
    unknownProduct: 'Uno de los productos elegidos no existe',
    overlaps: (name: string, window: string) =>
      `Se cruza con la promoción «${name}» (${window}) en el mismo producto o categoría (una promoción de un producto y otra de su categoría también se cruzan). Cambia los días o el horario.`,
  },
  // Agotado in one tap.
  menu: {
    soldOut: (name: string) => `${name} está agotado. Elige otro producto.`,
    notYourStation: 'Solo puedes marcar agotados los productos de tu estación',
  },
  // Modifier groups; a waiter's choice is worded by the domain (modifierProblemMessage).
  modifiers: {
    groupNotFound: 'Grupo de modificadores no encontrado',
    optionNotFound: 'Opción no encontrada',
    unknownProduct: 'Uno de los productos elegidos ya no existe',
  },
} as const;

/** The generic texts under their old name. */
export const HTTP_MESSAGES = MESSAGES.http;
