import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { createInlayCore, type InlayOptions } from './core.ts';
import { nodeRequest } from './node.ts';
import { nodeUpstream } from './node-upstream.ts';

export type InlayFastifyOptions = InlayOptions<FastifyRequest>;

/**
 * Inlay's token-and-proxy endpoint as a Fastify (5) plugin:
 * `fastify.register(inlayFastify, { prefix: '/api/inlay', ...options })`. The callbacks get Fastify's request.
 * Inside the plugin (and only there: it is encapsulated) Fastify's body parsers are replaced by one that leaves
 * the body unread, so the CSRF rules answer a form post, and the body streams to the core as it arrives.
 */
export const inlayFastify: FastifyPluginAsync<InlayFastifyOptions> = async (fastify, options) => {
  const core = createInlayCore<FastifyRequest>(options, nodeUpstream);
  const prefix = fastify.prefix;
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const raw = request.raw;
    const url = raw.url ?? '/';
    const path = url.startsWith(prefix) ? url.slice(prefix.length) || '/' : url;
    const { request: web, signal } = nodeRequest(
      raw,
      reply.raw,
      `${request.protocol}://${request.host}`,
      url,
    );
    const response = await core({
      request: web,
      signal,
      hostRequest: request,
      path: path.startsWith('/') ? path : `/${path}`,
      clientIp: request.ip,
    });
    return reply.send(response);
  };
  fastify.all('/', handler);
  fastify.all('/*', handler);
};
