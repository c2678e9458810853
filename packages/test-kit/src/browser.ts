/**
 * A browser for OAuth flows over plain fetch: follows nothing by itself, and keeps the cookies it is given
 * (name, value, path) the way a browser would, sending each only below its path. Two instances are two
 * browsers: what one was given, the other does not have.
 */
export class TestBrowser {
  private readonly jar = new Map<string, { value: string; path: string }>();

  /** The cookies it holds, by name. */
  get cookies(): Record<string, string> {
    return Object.fromEntries([...this.jar].map(([k, v]) => [k, v.value]));
  }

  /** Opens a URL (one request, no redirect followed) and keeps what `Set-Cookie` gives it. */
  async open(url: string, accept = 'text/html'): Promise<Response> {
    const u = new URL(url);
    const cookie = [...this.jar]
      .filter(([, c]) => u.pathname === c.path || u.pathname.startsWith(`${c.path.replace(/\/$/, '')}/`))
      .map(([k, c]) => `${k}=${c.value}`)
      .join('; ');
    const res = await fetch(url, { redirect: 'manual', headers: { accept, ...(cookie ? { cookie } : {}) } });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const path =
        attrs
          .map((a) => a.trim())
          .find((a) => /^path=/i.test(a))
          ?.slice(5) ?? '/';
      const expired = attrs.some((a) => /^expires=Thu, 01 Jan 1970/i.test(a.trim())) || !value;
      if (expired) this.jar.delete(name);
      else this.jar.set(name, { value, path });
    }
    return res;
  }

  /** Opens Inlay's start link; answers the provider's consent URL it redirects to. */
  async start(authorizeUrl: string): Promise<string> {
    const res = await this.open(authorizeUrl);
    if (res.status !== 302) throw new Error(`start link answered ${res.status}: ${await res.text()}`);
    return res.headers.get('location')!;
  }

  /** Start link, then the provider's consent: answers the provider's redirect back to Inlay (not opened yet). */
  async consent(authorizeUrl: string): Promise<string> {
    const res = await this.open(await this.start(authorizeUrl));
    if (res.status !== 302) throw new Error(`provider answered ${res.status}`);
    return res.headers.get('location')!;
  }

  /** The whole flow in this browser: start link, consent, callback. Answers the callback's response. */
  async connect(authorizeUrl: string, accept = 'text/html'): Promise<Response> {
    return this.open(await this.consent(authorizeUrl), accept);
  }
}
