/** What one connector's proxy traffic amounts to. */
export interface ProxyCount {
  connector: string;
  requests: number;
  /** Calls that failed in Inlay (refused, unreachable) or that the provider answered with 5xx. */
  errors: number;
  /** Response bytes streamed back. */
  bytes: number;
}

/**
 * Proxy calls counted per account and connector, since this node started. A proxy call is not an
 * execution: it has no run or log entry, so this is where it shows.
 */
export class ProxyMetrics {
  readonly #counts = new Map<string, Map<string, ProxyCount>>();

  record(accountId: string, connector: string, failed: boolean, bytes: number): void {
    let byConnector = this.#counts.get(accountId);
    if (!byConnector) {
      byConnector = new Map();
      this.#counts.set(accountId, byConnector);
    }
    let c = byConnector.get(connector);
    if (!c) {
      c = { connector, requests: 0, errors: 0, bytes: 0 };
      byConnector.set(connector, c);
    }
    c.requests++;
    if (failed) c.errors++;
    c.bytes += bytes;
  }

  of(accountId: string): ProxyCount[] {
    return [...(this.#counts.get(accountId)?.values() ?? [])]
      .map((c) => ({ ...c }))
      .sort((a, b) => a.connector.localeCompare(b.connector));
  }
}
