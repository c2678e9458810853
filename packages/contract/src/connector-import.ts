import { z } from 'zod';
import { LIMITS } from './common.ts';
import { Connector } from './connectors.ts';
import { DeclarativeConnector } from './custom-connectors.ts';

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
