/**
 * The widget's query retry policy: one quick retry (300 ms later) when the service could not be reached or
 * failed (status 0, 5xx, 429), none for an answer that will not change (4xx), so a broken service shows its
 * error in well under 2 s. The provider sets it for every `['inlay', …]` query, the host's QueryClient too.
 */
export const retry = (failures: number, err: unknown) => {
  const status = (err as { status?: number } | null)?.status ?? 0;
  return failures < 1 && (status < 400 || status > 499 || status === 429);
};

export const retryDelay = 300;
