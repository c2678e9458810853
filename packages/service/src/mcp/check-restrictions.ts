import type { ConnectorRuntime } from '@inlay/connectors';
import type { McpRestrictions } from '@inlay/contract';
import { unprocessable } from '../http/problem.ts';
import { isProxyable } from '../proxy/proxy-call.ts';
import { PROXY_ACTION } from './restrictions.ts';
import { TOOLS } from './tools.ts';

const TOOL_NAMES: ReadonlySet<string> = new Set(TOOLS.map((t) => t.name));

/**
 * Refuses restrictions that name something the account does not have. A misspelt name would otherwise be kept
 * and match nothing: a block list with a typo blocks nothing, which an operator would only find out from an
 * agent doing what it was meant not to. Names are checked against the built-ins and the account's own connectors
 * at creation; a connector deleted later simply stops matching.
 */
export function checkRestrictions(
  runtime: ConnectorRuntime,
  restrictions: McpRestrictions | undefined,
): void {
  for (const list of ['allow', 'block'] as const) {
    restrictions?.connectors?.[list]?.forEach((name, i) => {
      if (!runtime.get(name))
        throw unprocessable(
          `body.restrictions.connectors.${list}.${i}`,
          'exists',
          `no connector "${name}" in this account`,
        );
    });
    restrictions?.actions?.[list]?.forEach((name, i) => {
      const field = `body.restrictions.actions.${list}.${i}`;
      const dot = name.indexOf('.');
      // Without a dot an entry can only be a tool's name.
      if (dot < 0) {
        if (!TOOL_NAMES.has(name))
          throw unprocessable(
            field,
            'exists',
            `no MCP tool "${name}" (an entry is connector.action or a tool name such as run_workflow_inlay)`,
          );
        return;
      }
      const [connector, action] = [name.slice(0, dot), name.slice(dot + 1)];
      if (!runtime.get(connector))
        throw unprocessable(field, 'exists', `no connector "${connector}" in this account`);
      // `connector.proxy` names the connector's proxy (proxy_request_inlay), not an action.
      if (action === PROXY_ACTION.slice(1)) {
        if (!isProxyable(runtime.get(connector)!))
          throw unprocessable(field, 'exists', `connector "${connector}" has no proxy (it is a built-in)`);
        return;
      }
      if (!runtime.action(connector, action))
        throw unprocessable(field, 'exists', `connector "${connector}" has no action "${action}"`);
    });
  }
}
