import type { FastifyPluginAsync } from 'fastify';

export const cashCloseRoutes: FastifyPluginAsync = async () => {};
