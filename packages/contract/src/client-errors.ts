import { z } from 'zod';

/** Limits of a browser error report: enough to find the bug, too small to be a storage channel. */
export const CLIENT_ERROR_LIMITS = { message: 500, stack: 4000, url: 1000, userAgent: 400 } as const;

/** What a browser sends when a screen crashed (POST /api/client-errors); the server only logs it. */
export const ClientErrorBodySchema = z.strictObject({
  message: z.string().max(CLIENT_ERROR_LIMITS.message),
  stack: z.string().max(CLIENT_ERROR_LIMITS.stack).optional(),
  url: z.string().max(CLIENT_ERROR_LIMITS.url),
  userAgent: z.string().max(CLIENT_ERROR_LIMITS.userAgent).optional(),
});
export type ClientErrorBody = z.infer<typeof ClientErrorBodySchema>;
