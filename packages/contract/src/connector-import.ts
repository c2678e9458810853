import { z } from 'zod';
import { dataOf, LIMITS } from './common.ts';
import { Connector } from './connectors.ts';
import { DeclarativeConnector } from './custom-connectors.ts';
import { defineOperations } from './operation.ts';

const fields = DeclarativeConnector.shape;

/**
 * `POST /connectors/import`: an OpenAPI document to turn into a draft custom connector. The document
 * travels here, whole: Inlay never fetches it, nor anything a `$ref` in it points to.
 */
export const ImportConnectorBody = z
  .object({
    document: z.union([z.string().min(1), z.record(z.string(), z.unknown())]).meta({
      description:
        'An OpenAPI 3.0 or 3.1, or Swagger 2.0, document: as a JSON object, or as its YAML or JSON text. Only local `$ref`s (`#/...`) are followed; one to a URL or a file is a 422',
    }),
    id: fields.id.meta({ description: "The connector's id (a slug): its actions are `<id>.<operation>`" }),
    name: fields.name
      .optional()
      .meta({ description: "Display name; the document's `info.title` by default" }),
    category: fields.category.optional().meta({ description: '`developer` by default' }),
    baseUrl: fields.baseUrl.optional().meta({
      description: "Overrides the document's server; required when it names none, or a relative one",
    }),
    operations: z.array(z.string().min(1).max(LIMITS.name)).min(1).max(200).optional().meta({
      description:
        'Import only these operations, by `operationId` (for one without, the action id the import gives it, e.g. `get_accounts_by_id`). Required when the document has more than 200',
    }),
  })
  .strict()
  .meta({ id: 'ImportConnectorBody' });
export type ImportConnectorBody = z.infer<typeof ImportConnectorBody>;

export const ImportConnectorQuery = z
  .object({
    create: z.enum(['true', 'false']).optional().meta({
      description:
        "`true`: also create the draft as one of the account's connectors (as `POST /connectors` would), answering 201 with `connector`",
    }),
  })
  .meta({ id: 'ImportConnectorQuery' });
export type ImportConnectorQuery = z.infer<typeof ImportConnectorQuery>;

export const ImportWarning = z
  .object({
    operation: z.string().optional().meta({
      description: "The operation's `operationId`, or `METHOD /path`; absent for notes on the whole document",
    }),
    message: z.string().meta({ example: 'cookie parameter "session" was dropped: cookies are not sent' }),
  })
  .meta({ id: 'ImportWarning' });
export type ImportWarning = z.infer<typeof ImportWarning>;

export const ImportConnectorResponse = z
  .object({
    definition: DeclarativeConnector.meta({
      description:
        'The draft: a declarative connector with one action per operation, ready for `POST /connectors`',
    }),
    warnings: z.array(ImportWarning).meta({ description: 'What was dropped or guessed, for review' }),
    connector: Connector.optional().meta({
      description: 'With `?create=true`: the connector as created (version 1)',
    }),
  })
  .meta({ id: 'ImportConnectorResponse' });
export type ImportConnectorResponse = z.infer<typeof ImportConnectorResponse>;

/** The connectorImport operations of the REST API, keyed by operationId. */
export const connectorImportOperations = defineOperations({
  importConnector: {
    method: 'post',
    path: '/connectors/import',
    summary: 'Draft a custom connector from an OpenAPI document',
    tag: 'Connectors',
    auth: 'key',
    query: ImportConnectorQuery,
    body: ImportConnectorBody,
    ok: dataOf(ImportConnectorResponse),
    notFound: false,
    extra: {
      '201': {
        description:
          "With `?create=true`: the draft was created as one of the account's connectors (`connector`)",
        content: { 'application/json': { schema: dataOf(ImportConnectorResponse) } },
      },
    },
    problems: {
      '409':
        'With `?create=true`: the account already has a connector with this id, or the id is a built-in connector',
      '422':
        'The document cannot be imported: not YAML or JSON, not OpenAPI 3.0/3.1 or Swagger 2.0 (`rule: version`), no `paths`, a `$ref` outside the document (`rule: external_ref`), no absolute server and no `baseUrl`, an unknown entry in `operations`, or more than 200 operations without `operations`; with `?create=true`, the egress policy refuses its `baseUrl` (`code: egress_denied`). `errors[0]` names the field and the rule',
    },
  },
});
