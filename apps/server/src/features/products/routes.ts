import type { FastifyPluginAsync } from 'fastify';

export const productsRoutes: FastifyPluginAsync = async () => {};
