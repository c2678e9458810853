import { z } from 'zod';
import type { ConnectorDefinition } from '../types.ts';

const Scalar = z.union([z.string(), z.number(), z.boolean()]);

export const http: ConnectorDefinition = {
  id: 'http',
  name: 'HTTP',
  description: 'Send any HTTP request. An optional credential adds a header such as Authorization.',
  category: 'utility',
  icon: 'curl',
  color: '073551',
  baseUrl: '',
  auth: {
    type: 'apiKey',
    optional: true,
    in: 'header',
    name: '{headerName}',
    format: '{headerValue}',
    fields: [
      {
        name: 'headerName',
        label: 'Header name',
        type: 'text',
        required: true,
        secret: false,
        placeholder: 'Authorization',
      },
      {
        name: 'headerValue',
        label: 'Header value',
        type: 'password',
        required: true,
        secret: true,
        placeholder: 'Bearer …',
      },
    ],
  },
  actions: [
    {
      id: 'request',
      name: 'Send a request',
      description: 'Sends a request and returns its status, headers and body.',
      kind: 'write',
      input: z.object({
        method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('GET'),
        url: z.url({ protocol: /^https?$/ }),
        headers: z.record(z.string(), z.string()).optional(),
        query: z.record(z.string(), Scalar).optional(),
        body: z.unknown().optional(),
      }),
      handler: async (input, ctx) => {
        const res = await ctx.http({
          method: input.method,
          path: input.url,
          headers: input.headers,
          query: input.query,
          body: input.body,
        });
        return { status: res.status, headers: res.headers, body: res.body };
      },
    },
  ],
};
