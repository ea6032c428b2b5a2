import type { FastifyPluginAsync } from 'fastify';

export const checkoutRoutes: FastifyPluginAsync = async () => {};
