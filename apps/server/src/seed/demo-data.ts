import type { Role } from '@comanda/contract';

/** Sample data for a first run and for tests; not part of the product contract. */
export const DEMO_PASSWORD = 'comanda123';

export const DEMO_USERS: { email: string; displayName: string; role: Role; pin: string }[] = [
  { email: 'admin@comanda.mx', displayName: 'Ana Administradora', role: 'admin', pin: '1234' },
  { email: 'mesero@comanda.mx', displayName: 'Mario Mesero', role: 'waiter', pin: '1111' },
  { email: 'mesera@comanda.mx', displayName: 'Lucía Mesera', role: 'waiter', pin: '2222' },
  { email: 'cocina@comanda.mx', displayName: 'Carlos Cocina', role: 'kitchen', pin: '3333' },
  { email: 'barra@comanda.mx', displayName: 'Beto Barra', role: 'barra', pin: '4444' },
];

export const DEMO_TABLE_COUNT = 10;

/** name, category, price in centavos, description */
export const DEMO_PRODUCTS: [string, string, number, string][] = [
  ['Guacamole con totopos', 'Entrada', 12_900, 'Aguacate, pico de gallo y totopos recién hechos'],
  ['Queso fundido', 'Entrada', 11_500, 'Con chorizo y tortillas de harina'],
  ['Tacos al pastor (3)', 'Comida', 9_500, 'Con piña, cebolla y cilantro'],
  ['Hamburguesa de la casa', 'Comida', 18_900, 'Res 200 g, queso, papas a la francesa'],
  ['Enchiladas verdes', 'Comida', 14_500, 'Rellenas de pollo, crema y queso fresco'],
  ['Alitas BBQ (10)', 'Comida', 16_900, 'Con aderezo ranch y apio'],
  ['Flan napolitano', 'Postre', 6_500, 'Receta de la casa'],
  ['Churros con cajeta', 'Postre', 7_500, 'Cinco piezas'],
  ['Cerveza clara', 'Bebida', 5_500, 'Media 355 ml'],
  ['Michelada', 'Bebida', 8_500, 'Cerveza preparada con limón y salsas'],
  ['Limonada mineral', 'Bebida', 4_500, 'Con agua mineral'],
  ['Margarita', 'Bebida', 11_000, 'Tequila, triple sec y limón'],
  ['Botella tequila reposado', 'Botella', 120_000, '750 ml con refrescos y hielo'],
  ['Botella whisky 12 años', 'Botella', 180_000, '750 ml con refrescos y hielo'],
  ['Shot de mezcal', 'Shot', 7_000, 'Espadín joven con sal de gusano'],
  ['Shot de tequila', 'Shot', 6_500, 'Blanco, con sangrita'],
  ['Descorche', 'Servicio', 25_000, 'Por botella traída por el cliente'],
];
