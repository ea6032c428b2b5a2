import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from './errors.ts';
import { HTTP_MESSAGES, MESSAGES } from './messages.ts';
import { IdempotentReplay } from './idempotency.ts';
import { REPLAYED_HEADER } from './idempotent-routes.ts';
import { connectionLost, storageFailure } from '../db/unavailable.ts';
import { noteStorageFailure } from './storage-health.ts';

const UNAVAILABLE = HTTP_MESSAGES.unavailable;
const UNEXPECTED = HTTP_MESSAGES.unexpected;
const STORAGE_CODES = {
  full: 'storage_full',
  readOnly: 'storage_read_only',
  denied: 'storage_denied',
  failing: 'storage_failing',
} as const;

/** Turns any thrown error into { error: { code, message } } with a Spanish message; never leaks internals. */
export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof IdempotentReplay) {
    const { statusCode, body, json } = error.stored;
    reply.code(statusCode).header(REPLAYED_HEADER, 'true');
    return json === undefined ? reply.send(body) : reply.type('application/json; charset=utf-8').send(json);
  }
  if (error instanceof AppError) {
    return reply.code(error.statusCode).send({ error: { code: error.code, message: error.message } });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0];
    const where = first?.instancePath ? ` (${first.instancePath.replace(/^\//, '')})` : '';
    return reply.code(400).send({ error: { code: 'validation', message: `Datos inválidos${where}: ${first?.message ?? ''}`.trim() } });
  }
  if (isResponseSerializationError(error)) {
    request.log.error({ err: error, issues: error.cause.issues }, 'response does not match its schema');
    return reply.code(500).send({ error: { code: 'internal', message: UNEXPECTED } });
  }
  const status = error.statusCode ?? 500;
  if (status < 500) {
    const code = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'too_large' : 'bad_request';
    const message = code === 'too_large' ? HTTP_MESSAGES.tooLarge : HTTP_MESSAGES.badRequest;
    return reply.code(status).send({ error: { code, message } });
  }
  if (connectionLost(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    return reply.code(503).send({ error: { code: 'unavailable', message: UNAVAILABLE } });
  }
  // A disk that cannot take the data: nothing was saved; health reports it until a write succeeds.
  const storage = storageFailure(error);
  if (storage) {
    request.log.error({ err: error }, 'storage refused the data');
    noteStorageFailure(request.server.ctx, storage.problem, storage.code);
    return reply.code(503).send({ error: { code: STORAGE_CODES[storage.problem], message: MESSAGES.storage[storage.problem] } });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.code(500).send({ error: { code: 'internal', message: UNEXPECTED } });
}

/**
 * A request Node's HTTP parser refused (headers too large, a malformed request, one too slow),
 * answered in our error shape before the socket is closed. `Connection: close` says so, as Node's
 * own answer does: without it a client keeps the socket for its next request, which then fails.
 */
export function clientErrorAnswer(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers_too_large', HTTP_MESSAGES.tooLarge]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'timeout', HTTP_MESSAGES.timeout]
        : [400, 'bad_request', HTTP_MESSAGES.badRequest];
  const body = JSON.stringify({ error: { code, message } });
  if (socket.writable) {
    const head = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8`;
    socket.write(`${head}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  }
  socket.destroy(error);
}
