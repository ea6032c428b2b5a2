import type { FastifyPluginAsync } from 'fastify';

export const boardRoutes: FastifyPluginAsync = async () => {};
