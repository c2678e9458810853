import { z } from 'zod';
import { dataOf, IsoDateTime, intQuery } from './common.ts';
import { DeclarativeConnector } from './custom-connectors.ts';
import { defineOperations } from './operation.ts';

export const CustomConnectorDefinitionQuery = z
  .object({
    version: intQuery('version', 1, 1_000_000_000, 1)
      .optional()
      .meta({ description: 'A published version (1 is the first); the current version when left out' }),
  })
  .meta({ id: 'CustomConnectorDefinitionQuery' });
export type CustomConnectorDefinitionQuery = z.infer<typeof CustomConnectorDefinitionQuery>;

/** One of the account's own connectors as stored: what `POST`/`PUT /connectors` took, its SVG icon sanitised. */
export const CustomConnectorDefinition = z
  .object({
    id: z.string(),
    version: z.number().int().meta({ description: 'The version shown (1 is the first)' }),
    currentVersion: z.number().int(),
    definition: DeclarativeConnector,
    createdAt: IsoDateTime.meta({ description: 'When this version was published' }),
  })
  .meta({ id: 'CustomConnectorDefinition' });
export type CustomConnectorDefinition = z.infer<typeof CustomConnectorDefinition>;

/** The customConnectorDefinition operations of the REST API, keyed by operationId. */
export const customConnectorDefinitionOperations = defineOperations({
  getConnectorDefinition: {
    method: 'get',
    path: '/connectors/{connector}/definition',
    summary: "The stored definition of one of the account's own connectors, current or an earlier version",
    tag: 'Connectors',
    auth: 'key',
    params: z.object({ connector: z.string() }),
    query: CustomConnectorDefinitionQuery,
    ok: dataOf(CustomConnectorDefinition),
  },
});
