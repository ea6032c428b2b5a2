export * from './common.ts';
export * from './auth.ts';
export * from './config.ts';
export * from './live.ts';
export * from './orders.ts';
export * from './tables.ts';
export * from './products.ts';
