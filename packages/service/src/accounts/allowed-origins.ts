/** Why a value is not an allowed origin, in words a person can act on; undefined when it is one. */
export type OriginProblem = { rule: 'origin'; message: string };

/**
 * An account's allowed origin, normalised (`https://App.Example.com/` → `https://app.example.com`), or the
 * reason it is not one: only http(s), and nothing past the port, so an entry cannot pretend to restrict a
 * path (the browser's origin checks and `postMessage` know only origins).
 */
export function normaliseOrigin(value: string): { origin: string } | OriginProblem {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return {
      rule: 'origin',
      message: `"${value}" is not a URL; write an origin like https://app.example.com`,
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { rule: 'origin', message: `must be an http(s) origin, not ${url.protocol}` };
  if (url.username || url.password)
    return { rule: 'origin', message: 'must not carry a user name or password' };
  if (url.pathname !== '/' || url.search || url.hash || /[?#]$/.test(value.trim()))
    return {
      rule: 'origin',
      message: `must be an origin (scheme://host[:port]) without a path, query or fragment: ${url.origin}`,
    };
  return { origin: url.origin };
}

/** Loopback hosts a developer's page may run on: allowed outside production without being listed. */
const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);

export function isLoopbackHost(hostname: string): boolean {
  return (
    LOOPBACK_HOSTS.has(hostname) || hostname.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(hostname)
  );
}
