import { operations } from '@inlay/contract';
import { routeTable } from '@inlay/test-kit/route-table';
import { type Service, sharedService } from '@inlay/test-kit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_HANDLER_PREFIX } from '../../src/http/route.ts';

let svc: Service;
beforeAll(async () => {
  svc = await sharedService();
});
afterAll(() => svc?.close());

const toOpenApiPath = (expressPath: string) => expressPath.replace(/[:*](\w+)/g, '{$1}');

describe('the OpenAPI document', () => {
  it('documents every route the service serves, and nothing it does not', async () => {
    const doc = (await svc.call('GET', '/openapi.json')).body as { paths?: Record<string, object> };
    const documented = new Set(
      Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
        Object.keys(item ?? {}).map((m) => `${m.toUpperCase()} ${path}`),
      ),
    );
    const served = new Set(
      routeTable(svc.app)
        .filter((r) => !r.path.startsWith('/mcp/:'))
        .map((r) => `${r.method} ${toOpenApiPath(r.path)}`),
    );
    expect([...served].filter((r) => !documented.has(r)).sort()).toEqual([]);
    expect([...documented].filter((r) => !served.has(r)).sort()).toEqual([]);
    expect(served.size).toBeGreaterThan(30);
  });

  it('serves each contract operation by its operationId, and no route without one', () => {
    const routes = routeTable(svc.app).filter((r) => !r.path.startsWith('/mcp/:'));
    const served = routes.flatMap((r) =>
      r.handlers
        .filter((h) => h.startsWith(OPERATION_HANDLER_PREFIX))
        .map((h) => h.slice(OPERATION_HANDLER_PREFIX.length)),
    );
    // A route registered without route() has no operation: its handler is an ordinary function.
    expect(routes.filter((r) => !r.handlers.some((h) => h.startsWith(OPERATION_HANDLER_PREFIX)))).toEqual([]);
    expect(served.filter((id, i) => served.indexOf(id) !== i)).toEqual([]);
    expect([...served].sort()).toEqual(Object.keys(operations).sort());
  });
});
