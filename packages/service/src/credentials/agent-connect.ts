import type { AppContext } from '../context.ts';
import { HttpProblem } from '../http/problem.ts';
import { ToolFailure } from '../mcp/session.ts';
import { connectWithSecrets, replaceSecrets } from './connect.ts';
import { httpOrigin, startOAuth } from './oauth-flow.ts';
import { RedirectTargets } from './redirect-targets.ts';

/**
 * `create_credential_inlay`: an agent connects an app for its user. API-key and basic credentials are
 * checked with the provider and stored at once; OAuth returns the consent URL for the user to open. With
 * a `redirectUri` the browser returns there; without one the callback page announces the result on the
 * service's own origin and closes, and the agent polls `get_credentials_inlay` for the status.
 */
export async function createCredentialFor(
  ctx: AppContext,
  user: { accountId: string; id: string },
  req: { connectorId: string; redirectUri?: string; fields?: Record<string, string>; credentialId?: string },
): Promise<{ credentialId: string; status: string; authorizeUrl?: string }> {
  try {
    const def = (await ctx.registry.forAccount(user.accountId)).get(req.connectorId);
    if (def?.auth.type === 'oauth2') {
      // The same rule as the REST route, named as the agent knows it (the tool's `redirectUri`, which
      // defaults to the `x-redirect-uri` header): http(s) only, on one of the account's allowed origins.
      if (req.redirectUri !== undefined)
        (await RedirectTargets.of(ctx, user.accountId)).check(req.redirectUri, 'redirectUri');
      const started = await startOAuth(ctx, {
        accountId: user.accountId,
        userId: user.id,
        body: {
          connector: def.id,
          data: req.fields,
          ...(req.credentialId ? { credentialId: req.credentialId } : {}),
          ...(req.redirectUri
            ? { redirectUri: req.redirectUri, popup: false }
            : { popup: true, origin: httpOrigin(ctx.config.publicUrl) }),
        },
      });
      return { ...started, status: 'pending' };
    }
    if (req.credentialId) {
      const existing = await ctx.credentials.find(user.accountId, user.id, req.credentialId);
      if (!existing || existing.connector !== req.connectorId)
        throw new ToolFailure(`No ${req.connectorId} credential ${req.credentialId} of this user.`);
      const row = await replaceSecrets(ctx, existing, req.fields ?? {});
      return { credentialId: row.id, status: row.status };
    }
    const row = await connectWithSecrets(ctx, user, { connector: req.connectorId, data: req.fields ?? {} });
    return { credentialId: row.id, status: row.status };
  } catch (err) {
    // The REST problem already names what is wrong in words an agent can act on (and holds no secret).
    if (err instanceof HttpProblem && (err.status < 500 || err.status === 502))
      throw new ToolFailure(err.message);
    throw err;
  }
}
