const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** Whether a path segment names one object rather than a kind of them: a number, a UUID, a hash, a token. */
function idLike(segment: string): boolean {
  if (/^\d+$/.test(segment) || UUID.test(segment) || /^[0-9a-f]{12,}$/i.test(segment)) return true;
  // An email or any percent-encoded value, a long run of letters and digits (Stripe's cus_…, Slack's C0123…).
  if (/@|%/.test(segment)) return true;
  // A short prefixed id, however short its serial: Stripe's we_1, ch_3M (not a version such as api_v2).
  if (/^[a-z]{1,8}_[a-z0-9]*\d[a-z0-9]*$/i.test(segment) && !/_v\d+$/i.test(segment)) return true;
  return (
    segment.length >= 8 && /\d/.test(segment) && /[a-z]/i.test(segment) && !/^v\d+(\.\d+)*$/i.test(segment)
  );
}

/**
 * The path of a provider URL with each id-like segment replaced by `:id`, and no query: what was called, not
 * which object (`/v1/customers/cus_123/invoices` is `/v1/customers/:id/invoices`). At most 300 characters.
 */
export function routeTemplate(pathname: string): string {
  const route = pathname
    .split('/')
    .map((s) => (s && idLike(s) ? ':id' : s))
    .join('/');
  return (route || '/').slice(0, 300);
}
