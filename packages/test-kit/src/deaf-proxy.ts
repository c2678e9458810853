import { connect, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that passes everything but notifications (`NotificationResponse`, type
 * `A`), which it drops: what a pooler in transaction mode does to LISTEN. Returns the proxy's URL for `url`.
 */
export async function deafProxy(url: string): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    let pending = Buffer.alloc(0);
    upstream.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      const keep: Buffer[] = [];
      let at = 0;
      while (pending.length - at >= 5) {
        const len = pending.readUInt32BE(at + 1);
        if (pending.length - at < 1 + len) break;
        if (pending[at] !== 0x41) keep.push(pending.subarray(at, at + 1 + len));
        at += 1 + len;
      }
      pending = pending.subarray(at);
      if (keep.length) client.write(Buffer.concat(keep));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as { port: number }).port);
  return {
    url: proxied.href,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
