export * from './units.ts';
export * from './ledger.ts';
export * from './messages.ts';
export * from './auto-agotado.ts';
export * from './preparer.ts';
