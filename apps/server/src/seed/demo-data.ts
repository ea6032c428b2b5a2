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

/**
 * Demo modifier groups: name, min, max (null: any), options [name, delta], and the
 * products they are attached to by name. All optional, so adding a beer or tacos stays one tap.
 */
export const DEMO_MODIFIER_GROUPS: { name: string; min: number; max: number | null; options: [string, number][]; products: string[] }[] = [
  {
    name: 'Preparación',
    min: 0,
    max: 1,
    options: [
      ['Natural', 0],
      ['Preparada', 1_500],
      ['Michelada', 2_500],
    ],
    products: ['Cerveza clara'],
  },
  {
    name: 'Sin',
    min: 0,
    max: null,
    options: [
      ['cebolla', 0],
      ['cilantro', 0],
      ['piña', 0],
      ['chile', 0],
    ],
    products: ['Tacos al pastor (3)'],
  },
  {
    name: 'Extras',
    min: 0,
    max: 3,
    options: [
      ['Tocino', 2_500],
      ['Queso extra', 1_500],
      ['Jalapeños', 1_000],
    ],
    products: ['Hamburguesa de la casa'],
  },
];
