import type { FastifyPluginAsync } from 'fastify';

export const ticketsRoutes: FastifyPluginAsync = async () => {};
