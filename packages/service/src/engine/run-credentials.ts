import {
  type ConnectorDefinition,
  type ConnectorRuntime,
  type CredentialSecrets,
  fill,
  secretValues,
} from '@inlay/connectors';
import type { CredentialService } from '../credentials/credential-service.ts';
import { StepFailure } from './step-failure.ts';

/** What a step hands the connector runtime: secrets, the 401 refresh hook and the refusal hook. */
export interface StepCredential {
  credentialId: string;
  secrets: CredentialSecrets;
  onUnauthorized: () => Promise<CredentialSecrets | undefined>;
  onAuthRefused: (reason: string) => Promise<boolean>;
}

/** Every string of a credential that must never be stored: secret fields, tokens, a Basic header value. */
function secretsOf(def: ConnectorDefinition, s: CredentialSecrets): string[] {
  const declared = def.auth.type === 'none' ? [] : (def.auth.fields ?? []);
  // Only fields the connector declares non-secret (a subdomain, a header name) are left readable.
  const out = Object.entries(s.fields ?? {})
    .filter(([name]) => declared.find((f) => f.name === name)?.secret !== false)
    .map(([, v]) => v);
  if (s.oauth) out.push(s.oauth.accessToken, ...(s.oauth.refreshToken ? [s.oauth.refreshToken] : []));
  if (def.auth.type === 'basic') {
    const pair = `${fill(def.auth.username, s.fields ?? {})}:${fill(def.auth.password, s.fields ?? {})}`;
    out.push(Buffer.from(pair).toString('base64'));
  }
  return out;
}

/**
 * The credentials of one run: the installation's choice per connector, resolved once through the
 * credential service (which owns decryption and OAuth refresh), and the set of secret strings to scrub
 * from everything the run stores.
 */
export class RunCredentials {
  readonly #cache = new Map<string, StepCredential>();
  readonly #secrets = new Set<string>();

  constructor(
    private readonly service: CredentialService,
    private readonly runtime: ConnectorRuntime,
    private readonly owner: { accountId: string; userId: string },
    private readonly chosen: Record<string, string>,
  ) {}

  /** Secret strings seen so far in this run, longest first (what `redact` wants). */
  secrets(): string[] {
    return secretValues(this.#secrets);
  }

  /** The credential for a step's connector; undefined for connectors without auth. Throws StepFailure. */
  async for(connector: string): Promise<StepCredential | undefined> {
    const def = this.runtime.get(connector);
    if (!def || def.auth.type === 'none') return undefined;
    const hit = this.#cache.get(connector);
    if (hit) return hit;
    const credentialId = Object.hasOwn(this.chosen, connector) ? this.chosen[connector] : undefined;
    if (!credentialId) {
      if (def.auth.type === 'apiKey' && def.auth.optional) return undefined;
      throw new StepFailure(
        'credential_missing',
        `No ${def.name} account is chosen for this workflow, so the run stopped. Open Configure and choose one.`,
      );
    }
    const resolved = await this.service.resolve(this.owner.accountId, this.owner.userId, credentialId);
    if (!resolved) {
      const row = await this.service.find(this.owner.accountId, this.owner.userId, credentialId);
      if (row?.status === 'needs_reconnect')
        throw new StepFailure(
          'credential_needs_reconnect',
          `The ${def.name} credential of this installation needs reconnecting${row.statusReason ? ` (${row.statusReason})` : ''}`,
        );
    }
    if (!resolved || resolved.connector !== connector)
      throw new StepFailure(
        'credential_unavailable',
        `The ${def.name} credential of this installation is missing, not connected, or expired; reconnect it`,
      );
    const add = (s: CredentialSecrets) => {
      for (const v of secretsOf(def, s)) this.#secrets.add(v);
    };
    add(resolved.secrets);
    const entry: StepCredential = {
      credentialId,
      secrets: resolved.secrets,
      onUnauthorized: async () => {
        const fresh = await resolved.refresh();
        if (fresh) {
          add(fresh);
          entry.secrets = fresh;
        }
        return fresh;
      },
      onAuthRefused: (reason) => resolved.authRefused(reason),
    };
    this.#cache.set(connector, entry);
    return entry;
  }
}
