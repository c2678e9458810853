import { Agent, request } from 'node:http';

/**
 * Sequential round-trip times (ms) of one GET, over a kept-alive connection, with sub-millisecond resolution
 * (autocannon's percentiles are whole milliseconds, too coarse for a 1 ms budget).
 */
export async function roundTrips(url: string, headers: Record<string, string>, n: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const once = () =>
    new Promise<number>((resolve, reject) => {
      const t = process.hrtime.bigint();
      const req = request(url, { agent, headers }, (res) => {
        res.on('data', () => {});
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`${url} answered ${res.statusCode}`));
          else resolve(Number(process.hrtime.bigint() - t) / 1e6);
        });
      });
      req.on('error', reject);
      req.end();
    });
  const out: number[] = [];
  try {
    for (let i = 0; i < n; i++) out.push(await once());
  } finally {
    agent.destroy();
  }
  return out;
}

export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : Number.NaN;
};
