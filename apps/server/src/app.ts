import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyReply, type RouteOptions } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifyWebsocket from '@fastify/websocket';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import { responseSerializer } from './http/serializer.ts';
import type { AppContext } from './http/context.ts';
import type { TrustProxy } from './config.ts';
import { assertAllowed } from './http/access.ts';
import { badRequest, forbidden } from './http/errors.ts';
import { clientErrorAnswer, errorHandler } from './http/error-handler.ts';
import { installIdempotentRoutes } from './http/idempotent-routes.ts';
import { rememberedSession, resolveSession, sessionToken } from './auth/sessions.ts';
import { liveRoutes, liveSocketOptions } from './features/live/routes.ts';
import { featureRoutes } from './features/index.ts';
import { netRoutes } from './net/routes.ts';
import { HTTP_MESSAGES, MESSAGES } from './http/messages.ts';
import { installOpsRoutes } from './ops/routes.ts';
import { loadAppShell, renderAppShell } from './http/boot.ts';

export interface BuildOptions {
  ctx: AppContext;
  /** The built web app; served with a fallback to index.html for client routes. */
  webDist?: string | null;
  logger?: boolean;
  /** Told of every route as it is declared, before any other hook (tests read the real route table). */
  onRoute?: (route: RouteOptions) => void;
}

const CSP = [
  "default-src 'self'",
  "img-src 'self' data: blob: https:",
  "style-src 'self' 'unsafe-inline'",
  "script-src 'self'",
  "connect-src 'self' ws: wss:",
  "font-src 'self' data:",
  "worker-src 'self'",
  "manifest-src 'self'",
  "media-src 'self' data: blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

export async function buildApp({ ctx, webDist, logger = false, onRoute }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ? { level: ctx.config.LOG_LEVEL } : false,
    bodyLimit: 64 * 1024,
    trustProxy: trustProxyOption(ctx.config.TRUST_PROXY),
    // Deep nesting and prototype keys in JSON bodies are refused before any route sees them.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // Malformed URLs and over-long path parameters are refused by the router before any hook:
    // answer them in our error shape instead of Fastify's default (which echoes the URL).
    frameworkErrors: (error, _request, reply) => {
      const status: 400 | 414 = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
      void (reply as FastifyReply).code(status).send({ error: { code: 'bad_url', message: HTTP_MESSAGES.badRequest } });
    },
    clientErrorHandler: clientErrorAnswer,
  });
  if (onRoute) app.addHook('onRoute', onRoute);
  app.decorate('ctx', ctx);
  app.decorateRequest('user', null);
  app.decorateRequest('sessionHash', null);
  app.decorateRequest('sessionRead', true);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializer(ctx.config.CHECK_RESPONSES === 'on'));
  app.setErrorHandler(errorHandler);

  // Deny by default: an API route that does not declare who may call it stops the server.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api') && route.config?.access === undefined) {
      throw new Error(`La ruta ${route.method.toString()} ${route.url} no declara su acceso`);
    }
  });

  // Before any route is added: it wraps the handlers of mutating routes.
  installIdempotentRoutes(app, ctx);

  await app.register(fastifyCookie);
  await app.register(fastifyWebsocket, liveSocketOptions);
  await app.register(fastifySwagger, {
    openapi: { info: { title: 'Comanda API', version: '1.0.0' } },
    transform: jsonSchemaTransform,
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('content-security-policy', CSP);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    reply.header('x-frame-options', 'DENY');
    if (!request.url.startsWith('/api')) return;
    reply.header('cache-control', 'no-store');
    checkOrigin(request.method, request.headers.origin, request.headers.host);
    const token = sessionToken(request.cookies);
    // A write that checks the session in its own statement may start from one remembered.
    const remembered =
      request.routeOptions.config.session === 'checked-in-statement' && ctx.db.kind === 'postgres' ? rememberedSession(ctx, token) : null;
    request.sessionRead = remembered === null;
    const session = remembered ?? (await resolveSession(ctx, token));
    request.user = session?.user ?? null;
    request.sessionHash = session?.hash ?? null;
    const access = request.routeOptions.config.access;
    if (access === undefined) return; // unknown /api path: the 404 handler answers
    assertAllowed(access, request.user);
  });

  // SQLite's group commit: no answer leaves with work that is not yet on disk.
  // PostgreSQL has no group to wait for: no hook on its every request.
  const settled = ctx.db.settled;
  if (settled) {
    // Callback style: an answer with no group open goes on without a promise.
    app.addHook('onSend', (_request, _reply, payload, done) => {
      const open = settled();
      if (!open) return done(null, payload);
      open.then(() => done(null, payload), done);
    });
  }

  // PostgreSQL cannot store NUL characters and no field of ours needs them: refuse them for both databases.
  app.addHook('preValidation', (request, _reply, done) => {
    if (containsNul(request.body) || containsNul(request.query) || containsNul(request.params)) {
      return done(badRequest('Datos inválidos: contiene caracteres no permitidos', 'validation'));
    }
    done();
  });

  installOpsRoutes(app); // /api/health, /api/backups, /metrics (ops/routes.ts)
  app.get('/api/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());

  await app.register(liveRoutes);
  for (const routes of featureRoutes as FastifyPluginAsync[]) await app.register(routes);
  await app.register(netRoutes);

  const shell = webDist ? loadAppShell(webDist) : null;
  if (webDist && shell) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each script and style sheet: sent to the browsers that accept them.
      preCompressed: true,
      maxAge: '1h',
      immutable: false,
      // Files under /assets/ carry their content hash in the name: a new version has new names.
      setHeaders: (reply, path) => {
        if (/[\\/]assets[\\/]/.test(path)) reply.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    if (request.method === 'GET' && !request.url.startsWith('/api') && shell) {
      // May carry the signed-in user's data (http/boot.ts): never stored by any cache.
      return reply
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(await renderAppShell(app, shell, request));
    }
    return reply.code(404).send({ error: { code: 'not_found', message: 'Recurso no encontrado' } });
  });
  return app;
}

/**
 * TRUST_PROXY (config.ts) for Fastify: never "trust every X-Forwarded-For". A hop count trusts
 * that many hops from the connection inwards (Fastify itself ignores a bare number), a list
 * trusts only those proxy addresses.
 */
function trustProxyOption(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (trust === false) return false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A browser always sends Origin on cross-site writes: refuse those that are not ours. */
function checkOrigin(method: string, origin: string | undefined, host: string | undefined): void {
  if (SAFE_METHODS.has(method) || !origin) return;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw forbidden(MESSAGES.session.badOrigin);
  }
  if (originHost !== host) throw forbidden(MESSAGES.session.badOrigin);
}

function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 20 || value === null || typeof value !== 'object') return false;
  for (const [key, inner] of Object.entries(value)) if (key.includes('\u0000') || containsNul(inner, depth + 1)) return true;
  return false;
}
