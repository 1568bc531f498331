/** The routes of this part: console login, console usage, record lookup. */
import type { FastifyInstance } from 'fastify';
import { loginRoutes } from './login.js';
import { usageRoutes } from './usage.js';
import { recordRoutes } from '../records/routes.js';

export async function registerStorageRoutes(app: FastifyInstance): Promise<void> {
  await app.register(loginRoutes);
  await app.register(usageRoutes);
  await app.register(recordRoutes);
}
