import type { FastifyPluginAsync } from 'fastify';

export const terminalsRoutes: FastifyPluginAsync = async () => {};
