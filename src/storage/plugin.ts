/**
 * Wires storage into the app: `app.storage` (migrated in the background, tracked by
 * /readyz), `app.jwt` (console token service), closed with the server.
 */
import type { FastifyInstance } from 'fastify';
import { createStorage, type KouyuStorage } from './index.js';
import { createJwtService, type JwtService } from '../auth/jwt.js';

declare module 'fastify' {
  interface FastifyInstance {
    storage: KouyuStorage;
    jwt: JwtService;
  }
}

export async function registerStorage(app: FastifyInstance): Promise<KouyuStorage> {
  const storage = await createStorage(app.config);
  app.decorate('storage', storage);
  app.decorate('jwt', createJwtService(app.config));
  app.readiness.track('storage', storage.migrate());
  app.addHook('onClose', async () => storage.close());
  return storage;
}
