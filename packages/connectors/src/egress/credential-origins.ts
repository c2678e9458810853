/**
 * Parses the origins a bound credential may be sent to (comma- or whitespace-separated
 * `scheme://host[:port]`), normalised as `URL.origin` writes them. Throws an Error naming the first entry
 * that is not an http(s) origin: a path, query, fragment or user name would suggest a narrower binding
 * than the origin the check enforces, so they are refused rather than dropped.
 */
export function parseCredentialOrigins(value: string): string[] {
  const entries = value.split(/[\s,]+/).filter(Boolean);
  if (entries.length === 0) throw new Error('must name at least one origin, e.g. https://api.example.com');
  if (entries.length > 20) throw new Error('may name at most 20 origins');
  const out = new Set<string>();
  for (const entry of entries) {
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      throw new Error(`"${entry}" is not an origin such as https://api.example.com`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new Error(`"${entry}" must use http or https`);
    if (
      url.username ||
      url.password ||
      url.search ||
      url.hash ||
      (url.pathname !== '/' && url.pathname !== '')
    )
      throw new Error(
        `"${entry}" must be an origin only (scheme://host[:port]), without path, query or user`,
      );
    if (/[*]/.test(url.hostname))
      throw new Error(`"${entry}" must name one host; wildcards are not supported`);
    out.add(url.origin);
  }
  return [...out];
}
