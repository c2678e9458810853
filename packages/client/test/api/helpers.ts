// Test helpers: the real service (in-process, PGlite) and a fake provider, reused from the other packages' tests.

export {
  createUser,
  insertExecutions,
  installDirect,
  seedAccount,
  slackDefinition,
  tokenFor,
} from '@inlay/test-kit/fixtures';
export { startProvider } from '@inlay/test-kit/provider';
export { type Service, sharedService, startService } from '@inlay/test-kit/service';

import type { Service } from '@inlay/test-kit/service';

/** Whether the service serves a route yet (an unknown route answers `404 No route …`). */
export async function landed(svc: Service, apiKey: string, method: string, path: string): Promise<boolean> {
  const r = await svc.call(method, path, { auth: apiKey, body: method === 'GET' ? undefined : {} });
  return !(r.status === 404 && /^No route/.test(r.body?.detail ?? ''));
}
