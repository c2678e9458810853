import { z } from 'zod';
import { requestHeaderProblem } from '../egress/request-headers.ts';
import type { ConnectorDefinition } from '../types.ts';

const Scalar = z.union([z.string(), z.number(), z.boolean()]);

/** Header names and values a caller may send: not the transport's own, no line breaks. */
const Headers = z.record(z.string(), z.string()).superRefine((headers, ctx) => {
  for (const [name, value] of Object.entries(headers)) {
    const problem = requestHeaderProblem(name, value);
    if (problem) ctx.addIssue({ code: 'custom', path: [name], message: problem });
  }
});

export const http: ConnectorDefinition = {
  id: 'http',
  name: 'HTTP',
  description:
    'Send any HTTP request. An optional credential adds a header such as Authorization, only to the origins it was created for.',
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
    originsField: 'origins',
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
      {
        name: 'origins',
        label: 'Allowed origins',
        type: 'text',
        required: true,
        secret: false,
        placeholder: 'https://api.example.com',
        help: 'The only origins (scheme://host[:port], comma-separated) this header is ever sent to; fixed when the credential is created',
      },
    ],
  },
  actions: [
    {
      id: 'request',
      name: 'Send a request',
      description:
        'Sends a request and returns its status, headers and body. A credential is used only when the step names one, and only for its origins.',
      kind: 'write',
      input: z.object({
        method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('GET'),
        url: z.url({ protocol: /^https?$/ }),
        headers: Headers.optional(),
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
