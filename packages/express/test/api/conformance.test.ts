// @inlay/express on Express 5, against the conformance suite every backend adapter runs (@inlay/test-kit).
import { backendConformance } from '@inlay/test-kit/backend-conformance';
import { startHost } from '../helpers.ts';

backendConformance('Express 5 (@inlay/express)', ({ serviceUrl, apiKey, timeoutMs }) =>
  startHost({
    serviceUrl,
    apiKey,
    timeoutMs,
    autoCreateUsers: { username: (req) => req.get('x-host-user') ?? '' },
  }),
);
