/** Calls to Acme CRM's own backend (cookie session). */
export interface Me {
  username: string;
  fullName: string;
}

export interface DemoConfig {
  serviceUrl: string;
  sandboxUrl: string;
}

export interface Deal {
  id: string;
  name: string;
  company: string;
  amount: number;
  contactName: string;
  contactEmail: string;
  stage: 'open' | 'won' | 'lost';
  createdAt: string;
}

export interface RunSummary {
  event: string;
  executionIds: string[];
  error?: string;
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`/api${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as T & { message?: string };
  if (!res.ok) throw new Error(json.message ?? `HTTP ${res.status}`);
  return json;
}
