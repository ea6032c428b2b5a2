import { z } from 'zod';
import { CLIENT_ERROR_LIMITS } from '@comanda/domain';

export { CLIENT_ERROR_LIMITS };

/** What a browser sends when a screen crashed (POST /api/client-errors); the server only logs it. */
export const ClientErrorBodySchema = z.strictObject({
  message: z.string().max(CLIENT_ERROR_LIMITS.message),
  stack: z.string().max(CLIENT_ERROR_LIMITS.stack).optional(),
  url: z.string().max(CLIENT_ERROR_LIMITS.url),
  userAgent: z.string().max(CLIENT_ERROR_LIMITS.userAgent).optional(),
});
export type ClientErrorBody = z.infer<typeof ClientErrorBodySchema>;
