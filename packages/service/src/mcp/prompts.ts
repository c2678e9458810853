import { credentialFields } from '@inlay/connectors';
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { findExecution, logEntriesOf } from '../executions/executions.ts';
import { isUuid } from '../http/validate.ts';
import type { McpSession } from './session.ts';

const text = (t: string) => ({
  messages: [{ role: 'user' as const, content: { type: 'text' as const, text: t } }],
});

// Built once: a zod schema is costly to construct, and the server is built per request.
const ConnectArgs = z.object({ connector: z.string().max(64) });
const DiagnoseArgs = z.object({ executionId: z.string().max(64) });

export function registerPrompts(server: McpServer, s: McpSession): void {
  server.registerPrompt(
    'connect_app',
    {
      description: 'Guides the user through connecting an app',
      argsSchema: ConnectArgs,
    },
    async ({ connector }) => {
      const def = s.ctx.connectors.get(connector);
      if (!def || !s.restrictions.connector(connector))
        return text(
          `There is no app "${connector}" on this server. Call list_connectors_inlay to find the right id, then use this prompt again.`,
        );
      if (def.auth.type === 'none')
        return text(`${def.name} needs no credential: its actions can be called directly.`);
      if (def.auth.type === 'oauth2')
        return text(
          [
            `Help the user connect ${def.name}.`,
            `1. Call create_credential_inlay with {"connectorId":"${def.id}","authenticationType":"oauth2"}.`,
            '2. Give the user the returned authorizeUrl to open in a browser and approve access.',
            `3. Call get_credentials_inlay with {"connectorId":"${def.id}"} until the credential's status is "connected" (or "failed", then show the reason).`,
          ].join('\n'),
        );
      const fields = credentialFields(def);
      return text(
        [
          `Help the user connect ${def.name} with ${def.auth.type === 'apiKey' ? 'an API key' : 'a username and password'}.`,
          `Ask the user for: ${fields.map((f) => `${f.label} (\`${f.name}\`${f.required ? '' : ', optional'}${f.help ? `: ${f.help}` : ''})`).join('; ')}.`,
          `Then call create_credential_inlay with {"connectorId":"${def.id}","authenticationType":"${def.auth.type}","fields":{…}}.`,
          'Inlay checks the credential with the provider; if it is rejected, show the provider’s reason and ask again. Never repeat the secret back in chat.',
        ].join('\n'),
      );
    },
  );

  server.registerPrompt(
    'diagnose_execution',
    {
      description: 'Explains why a run failed, from its failed steps',
      argsSchema: DiagnoseArgs,
    },
    async ({ executionId }) => {
      const row =
        s.user && isUuid(executionId)
          ? await findExecution(s.ctx.db, s.accountId, s.user.id, executionId)
          : undefined;
      if (!row) return text(`No execution ${executionId} was found for this user.`);
      const entry = (await logEntriesOf(s.ctx.db, [row]))[0]!;
      const failed = entry.results
        .map((r, i) => ({
          step: i + 1,
          stepId: r.stepId,
          connector: r.connector,
          action: r.action,
          input: entry.inputs[i]?.data,
          error: r.error,
          attempts: r.attempts,
        }))
        .filter((r) => r.error);
      return text(
        [
          `Diagnose workflow run ${entry.executionId} (workflow ${entry.workflowId}, version ${entry.version}).`,
          `Status: ${entry.status}; started ${entry.startedAt}; stopped ${entry.stoppedAt ?? 'not yet'}.`,
          entry.error ? `Run error: ${entry.error.message}` : 'The run recorded no error.',
          failed.length ? 'Failed steps with their inputs and errors:' : 'No step failed.',
          failed.length ? JSON.stringify(failed, null, 2) : '',
          'Explain the most likely cause in plain words and what the user can change (credential, configuration, input data) to fix it.',
        ]
          .filter(Boolean)
          .join('\n'),
      );
    },
  );
}
