import type { Connector, ConnectorAction, ConnectorTrigger, CredentialField } from '@inlay/contract';
import { v5 as uuidv5 } from 'uuid';
import { z } from 'zod';
import { apps } from './apps/index.ts';
import { delay } from './builtins/delay.ts';
import { http } from './builtins/http.ts';
import { transform } from './builtins/transform.ts';
import { validateConnectors } from './schema.ts';
import type { ActionDefinition, ConnectorDefinition, TriggerDefinition } from './types.ts';

/** Namespace of connector UUIDs: the same slug always yields the same `connectorId`. */
const CONNECTOR_NAMESPACE = '5b1d6f3e-8f0a-4c39-9a43-7f6c2b1e9d10';

export const builtins: readonly ConnectorDefinition[] = [http, transform, delay];
export const catalog: readonly ConnectorDefinition[] = validateConnectors([...builtins, ...apps]);

export const connectorUuid = (id: string) => uuidv5(id, CONNECTOR_NAMESPACE);

export function credentialFields(def: ConnectorDefinition): CredentialField[] {
  return def.auth.type === 'none' ? [] : (def.auth.fields ?? []);
}

export function actionInputSchema(action: ActionDefinition): Record<string, unknown> {
  return z.toJSONSchema(action.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}

/** The public catalog entry of a connector (`GET /connectors`). */
export function toConnector(def: ConnectorDefinition, publicUrl: string): Connector {
  return {
    id: def.id,
    connectorId: connectorUuid(def.id),
    name: def.name,
    description: def.description,
    category: def.category,
    icon: connectorIconUrl(def, publicUrl),
    authType: def.auth.type,
    credentialFields: credentialFields(def),
    ...(def.auth.type === 'oauth2' ? { scopes: def.auth.scopes } : {}),
    actions: def.actions.map((a) => ({ id: a.id, name: a.name, kind: a.kind })),
    sources: Object.keys(def.sources ?? {}),
    triggers: (def.triggers ?? []).map(toConnectorTrigger),
    ...(def.custom ? { custom: true, version: def.custom.version } : {}),
    ...(def.apis && Object.keys(def.apis).length ? { apis: Object.keys(def.apis) } : {}),
  };
}

/** A trigger as `GET /connectors` lists it, with its input as JSON Schema. */
export const toConnectorTrigger = (t: TriggerDefinition): ConnectorTrigger => ({
  id: t.id,
  name: t.name,
  description: t.description,
  kind: t.kind,
  input: z.toJSONSchema(t.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
});

export function toConnectorAction(action: ActionDefinition): ConnectorAction {
  return {
    id: action.id,
    name: action.name,
    description: action.description,
    kind: action.kind,
    inputSchema: actionInputSchema(action),
  };
}

export const iconUrl = (id: string, publicUrl: string) =>
  `${publicUrl.replace(/\/+$/, '')}/connectors/${encodeURIComponent(id)}/icon.svg`;

/** A connector's icon URL; a custom connector's carries its key (see `ConnectorDefinition.custom`). */
export const connectorIconUrl = (def: ConnectorDefinition, publicUrl: string) =>
  def.custom
    ? `${iconUrl(def.id, publicUrl)}?key=${encodeURIComponent(def.custom.key)}`
    : iconUrl(def.id, publicUrl);
