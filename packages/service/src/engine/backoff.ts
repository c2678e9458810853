export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

/**
 * How long to wait before retry number `attempt` (1 = the first retry): exponential with "equal jitter"
 * (half fixed, half random) so a burst of failing runs does not retry in lockstep. A provider's `Retry-After`
 * wins when given; both are capped so one step cannot park a worker for hours.
 */
export function retryDelay(
  attempt: number,
  policy: BackoffPolicy,
  retryAfterMs?: number,
  random = Math.random,
): number {
  if (retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), policy.maxMs);
  const exp = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
}
