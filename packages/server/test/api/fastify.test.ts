// The Fastify 5 plugin, against the conformance suite.
import { backendConformance } from '@inlay/test-kit/backend-conformance';
import Fastify from 'fastify';
import { inlayFastify } from '../../src/fastify.ts';

backendConformance('Fastify 5', async ({ serviceUrl, apiKey, timeoutMs }) => {
  // Closing drops the connections a test left open (an aborted download, a refused upload), as the other
  // adapters' hosts do; Fastify would otherwise wait out its 72 s keep-alive for them.
  const fastify = Fastify({ forceCloseConnections: true });
  // The host's own routes keep Fastify's parsers; the plugin's are its own (encapsulated).
  fastify.post('/echo', async (request) => request.body);
  await fastify.register(inlayFastify, {
    prefix: '/api/inlay',
    serviceUrl,
    apiKey,
    timeoutMs,
    userId: (request) => (request.headers['x-host-user'] as string | undefined) ?? null,
    autoCreateUsers: { username: (request) => String(request.headers['x-host-user'] ?? '') },
  });
  const url = await fastify.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => fastify.close() };
});
