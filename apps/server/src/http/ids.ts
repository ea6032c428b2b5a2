import { randomBytes, createHash } from 'node:crypto';
import { v7 } from 'uuid';

/** Time-ordered ids: index-friendly and sortable by creation. */
export const newId = (): string => v7();
export const randomToken = (): string => randomBytes(32).toString('base64url');
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
