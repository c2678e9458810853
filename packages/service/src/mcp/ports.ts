import { actionSteps } from '@inlay/contract';
import { createCredentialFor } from '../credentials/agent-connect.ts';
import type { Engine } from '../engine/engine.ts';
import { findInstalled, runFor } from '../engine/installed.ts';
import type { Limiters } from '../ratelimit/limiters.ts';
import { proxyQuotaWait } from '../ratelimit/rate-limit.ts';
import { ConcurrencyLimit } from './concurrency.ts';
import { capValue } from './result-cap.ts';
import { type McpPorts, ToolFailure } from './session.ts';

// Built-ins every workflow may use; a server's connector restrictions speak of apps.
const BUILT_INS = new Set(['transform', 'delay']);

/**
 * The acting tools' backends: the engine runs actions and workflows, the credential flows connect apps. Actions
 * and proxied requests share one limit of calls in flight per user; proxied requests also spend the user's proxy
 * quota, as the REST proxy does.
 */
export function createMcpPorts(engine: Engine, maxConcurrentActions: number, limiters: Limiters): McpPorts {
  const actions = new ConcurrencyLimit(maxConcurrentActions);
  return {
    async proxySlot(s) {
      const release = actions.tryEnter(`${s.accountId}:${s.user.id}`);
      if (!release)
        throw new ToolFailure(
          `Too many execute_action_inlay and proxy_request_inlay calls in flight for this user: the limit is ${actions.limit} at a time (INLAY_MCP_MAX_CONCURRENT_ACTIONS). Wait for one to finish, then retry.`,
        );
      try {
        const wait = await proxyQuotaWait(limiters, { accountId: s.accountId, id: s.user.id });
        if (wait !== undefined)
          throw new ToolFailure(
            `This user has used up the proxy quota (INLAY_PROXY_RATE_LIMIT_PER_USER). Retry in ${wait} s.`,
          );
      } catch (err) {
        release();
        throw err;
      }
      return release;
    },
    async executeAction(s, req) {
      const release = actions.tryEnter(`${s.accountId}:${s.user.id}`);
      if (!release)
        throw new ToolFailure(
          `Too many execute_action_inlay and proxy_request_inlay calls in flight for this user: the limit is ${actions.limit} at a time (INLAY_MCP_MAX_CONCURRENT_ACTIONS). Wait for one to finish, then retry.`,
        );
      try {
        const r = await engine.executeAction({
          accountId: s.accountId,
          userId: s.user.id,
          connector: req.connectorId,
          action: req.actionId,
          parameters: req.parameters,
          credentialId: req.credentialId,
        });
        // The log holds the failure too; the agent gets its reason, already scrubbed of secrets.
        if (r.error) throw new ToolFailure(`${r.error.message} (executionId ${r.executionId})`);
        // Cut inside the slot, so a large output is held in full by at most `limit` calls per user.
        const cut = capValue(r.output ?? null, s.ctx.config.maxStepOutputBytes);
        return {
          executionId: r.executionId,
          ...(r.statusCode !== undefined ? { statusCode: r.statusCode } : {}),
          output: cut.value,
          ...(cut.truncated ? { truncated: true } : {}),
        };
      } finally {
        release();
      }
    },
    async runWorkflow(s, workflowId, data) {
      const installed = await findInstalled(s.ctx.db, s.accountId, s.user.id, workflowId);
      if (!installed) throw new ToolFailure(`Workflow ${workflowId} is not installed for this user.`);
      if (!installed.active || !installed.enabled)
        throw new ToolFailure(`Workflow ${workflowId} is switched off for this user; activate it first.`);
      const compiled = await s.defs.get(workflowId, installed.version);
      const blocked = (compiled ? actionSteps(compiled.definition.steps) : []).find(
        (st) => !BUILT_INS.has(st.connector) && !s.restrictions.listed(st.connector),
      );
      if (blocked)
        throw new ToolFailure(`This server may not use ${blocked.connector}, which the workflow calls.`);
      return engine.enqueue([runFor(installed, data, 'manual')]);
    },
    createCredential: (s, req) => createCredentialFor(s.ctx, s.user, req),
  };
}
