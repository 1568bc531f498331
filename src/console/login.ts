/**
 * `POST /api/v1/auth/login` (the spec leaves the shape open; this is our choice, documented
 * in docs/storage.md): JSON `{username, password}` → envelope
 * `data:{accessToken, tokenType:'Bearer', expiresIn (s), expiresAt (ms), tenantId, username}`.
 * Wrong credentials → 401 40100 "invalid username or password" (one message for unknown
 * user and wrong password, so the answer does not reveal which usernames exist).
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';
import { envelope, envelopeSchema } from '../http/envelope.js';
import type { JwtService } from '../auth/jwt.js';
import type { UserStore } from '../storage/types.js';

export interface LoginResult {
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  expiresAt: number;
  tenantId: string;
  username: string;
}

export async function login(users: UserStore, jwt: JwtService, username: string, password: string): Promise<LoginResult> {
  const user = await users.verifyLogin(username, password);
  if (!user) throw new ApiError('UNAUTHENTICATED', 'invalid username or password');
  const { token, expiresAt } = await jwt.issue(user);
  return { accessToken: token, tokenType: 'Bearer', expiresIn: jwt.ttlSeconds, expiresAt, tenantId: user.tenantId, username: user.username };
}

const loginData = {
  type: 'object',
  properties: {
    accessToken: { type: 'string', description: 'JWT for `Authorization: Bearer` (query `token` on WebSocket handshakes)' },
    tokenType: { type: 'string', const: 'Bearer' },
    expiresIn: { type: 'integer', description: 'lifetime in seconds' },
    expiresAt: { type: 'integer', description: 'expiry, Unix milliseconds' },
    tenantId: { type: 'string' },
    username: { type: 'string' },
  },
} as const;

export async function loginRoutes(app: FastifyInstance): Promise<void> {
  app.post<{ Body: { username: string; password: string } }>(
    '/api/v1/auth/login',
    {
      config: { auth: [] },
      schema: {
        summary: 'Console login: issues the Bearer JWT',
        tags: ['console'],
        body: {
          type: 'object',
          required: ['username', 'password'],
          additionalProperties: false,
          properties: {
            username: { type: 'string', minLength: 1, maxLength: 128 },
            password: { type: 'string', minLength: 1, maxLength: 1024 },
          },
        },
        response: {
          200: envelopeSchema(loginData),
        },
      },
    },
    async (request) => envelope(await login(app.storage.users, app.jwt, request.body.username, request.body.password)),
  );
}
