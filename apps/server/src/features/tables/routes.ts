import type { FastifyPluginAsync } from 'fastify';

export const tablesRoutes: FastifyPluginAsync = async () => {};
