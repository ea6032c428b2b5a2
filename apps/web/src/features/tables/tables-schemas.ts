/**
 * The contract's response schemas of the tables screens, in a chunk of their own: the screens
 * load it on their first call (`tables-api.ts`), so zod and the order schemas are not evaluated
 * before the tables first show (decision 0032).
 */
export { OpenTabBodySchema, OrderResponseSchema, TableResponseSchema, TablesResponseSchema } from '@comanda/contract';
