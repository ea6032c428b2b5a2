import { randomBytes, createHash, randomUUID } from 'node:crypto';
import { v7 } from 'uuid';

/** Time-ordered ids: index-friendly and sortable by creation. */
export const newId = (): string => v7();
/**
 * Orders are the exception: the spec's ticket number is the first 6 characters of the order id,
 * and a time-ordered id would give every ticket of a night the same number. Random ids keep it
 * distinct; orders are found by their indexed timestamps, never by id order.
 */
export const newOrderId = (): string => randomUUID();
export const randomToken = (): string => randomBytes(32).toString('base64url');
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
