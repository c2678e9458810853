import { importOpenApi, OpenApiImportError, toConnector } from '@inlay/connectors';
import { type ImportConnectorResponse, operations as ops } from '@inlay/contract';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { createCustomConnector } from '../custom-connectors/create-custom-connector.ts';
import { unprocessable } from '../http/problem.ts';
import { route } from '../http/route.ts';

/**
 * `POST /connectors/import`: an OpenAPI document (in the body, never fetched) as a draft custom connector
 * with warnings, for the account to review and create with `POST /connectors`; `?create=true` creates it now.
 */
export function connectorImportRoutes(ctx: AppContext): Router {
  const r = Router();
  route(r, ops.importConnector, async (req, res, { query: { create }, body: { document, ...opts } }) => {
    let data: ImportConnectorResponse;
    try {
      data = await importOpenApi(document, opts);
    } catch (e) {
      if (e instanceof OpenApiImportError) throw unprocessable(e.field, e.rule, e.message);
      // Whatever else a document makes the parser or converter throw is still the document's fault.
      throw unprocessable('body.document', 'openapi', `could not be converted: ${(e as Error).message}`);
    }
    if (create !== 'true') {
      res.json({ data });
      return;
    }
    const row = await createCustomConnector(ctx, req.principal!.accountId, data.definition);
    const connector = toConnector(ctx.registry.compile(row), ctx.config.publicUrl);
    res.status(201).json({ data: { ...data, connector } });
  });
  return r;
}
