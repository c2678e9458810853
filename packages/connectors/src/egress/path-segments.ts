/**
 * Path segments that would leave a base path. A URL parser resolves `.` and `..` segments, and servers and
 * proxies in front of a provider decode `%2e` and treat `\` (or an encoded `/` or `\`) as a separator, so a path
 * that reads as staying under `https://api.example.com/v1` can reach `/internal` there. Every request path below a
 * base URL is checked with this before its URL is built.
 */

/** Percent-decodes the dots, separators and `%` itself, again until nothing changes (`%252e` is `%2e` is `.`). */
function decodeDotsAndSeparators(s: string): string {
  for (let i = 0; i < 4; i++) {
    const next = s.replace(/%25/gi, '%').replace(/%2e/gi, '.').replace(/%2f/gi, '/').replace(/%5c/gi, '\\');
    if (next === s) return s;
    s = next;
  }
  return s;
}

/**
 * Why `path` (the part after the base URL, before any `?`) could leave the base path, or undefined when it cannot:
 * a `.` or `..` segment, raw or percent-encoded in any case, with `/`, `\` or their encodings as separators.
 */
export function dotSegmentProblem(path: string): string | undefined {
  const pathOnly = path.split(/[?#]/, 1)[0]!;
  for (const segment of decodeDotsAndSeparators(pathOnly).split(/[/\\]/)) {
    if (segment === '.' || segment === '..')
      return `must not contain a "${segment}" segment (raw, percent-encoded or behind a backslash): it would leave the base path`;
  }
  return undefined;
}

/**
 * A value rendered into a path template as exactly one segment: separators, `?` and `#` are encoded, while
 * percent-escapes already in it (from `$encodeUrlComponent`) are kept. `.`, `..` and an empty value are refused,
 * as the built-ins' `path` tag refuses them.
 */
export function asPathSegment(value: string): string | undefined {
  if (value === '' || dotSegmentProblem(value)) return undefined;
  return value.replace(/%(?![0-9a-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@%]/giu, (c) => encodeURIComponent(c));
}
