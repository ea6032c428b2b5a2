import { MESSAGES } from './messages.ts';
/** An error whose message is safe to show to the user (Spanish, from the spec's catalogue). */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, code = 'bad_request') => new AppError(400, code, message);
export const unauthorized = (message: string = MESSAGES.session.unauthenticated) => new AppError(401, 'unauthorized', message);
export const forbidden = (message: string = MESSAGES.session.forbidden) => new AppError(403, 'forbidden', message);
export const notFound = (message: string) => new AppError(404, 'not_found', message);
export const conflict = (message: string, code = 'conflict') => new AppError(409, code, message);
export const tooManyRequests = (message: string = MESSAGES.session.tooMany) => new AppError(429, 'too_many_requests', message);
