// Test helpers: the real service (in-process, PGlite) and a fake provider, reused from the other packages' tests.
export { startProvider } from '../../connectors/test/helpers/provider.ts';
export {
  createUser,
  insertExecutions,
  installDirect,
  seedAccount,
  slackDefinition,
  tokenFor,
} from '../../service/test/helpers/fixtures.ts';
export { type Service, startService } from '../../service/test/helpers/service.ts';

import type { Service } from '../../service/test/helpers/service.ts';

/** Whether the service serves a route yet (an unknown route answers `404 No route …`). */
export async function landed(svc: Service, apiKey: string, method: string, path: string): Promise<boolean> {
  const r = await svc.call(method, path, { auth: apiKey, body: method === 'GET' ? undefined : {} });
  return !(r.status === 404 && /^No route/.test(r.body?.detail ?? ''));
}
