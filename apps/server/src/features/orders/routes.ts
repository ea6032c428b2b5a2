import type { FastifyPluginAsync } from 'fastify';

export const ordersRoutes: FastifyPluginAsync = async () => {};
