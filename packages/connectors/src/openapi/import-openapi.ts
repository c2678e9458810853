import { type ConnectorCategory, DeclarativeAction, DeclarativeConnector } from '@inlay/contract';
import { z } from 'zod';
import { compileDeclarative } from '../declarative/compile-declarative.ts';
import { slugId, synthesizedId, uniqueIds } from './action-id.ts';
import { documentBaseUrl } from './base-url.ts';
import { type ImportWarning, OpenApiImportError } from './import-error.ts';
import { type DraftAction, operationAction } from './operation-action.ts';
import { readDocument } from './read-document.ts';
import { documentAuth } from './security-auth.ts';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const UNSUPPORTED = ['head', 'options', 'trace'];
const MAX_ACTIONS = 200;

export interface ImportOptions {
  /** The connector's id (a slug). */
  id: string;
  /** Display name; the document's `info.title` by default. */
  name?: string;
  category?: ConnectorCategory;
  /** Overrides the document's server (needed when it gives none, or a relative one). */
  baseUrl?: string;
  /** Only these operations: `operationId`s, or for operations without one the id the import gives them. */
  operations?: string[];
}

export interface ImportResult {
  definition: DeclarativeConnector;
  warnings: ImportWarning[];
}

/** The input schema compiles as the runtime will compile it; a property that does not is loosened, with a warning. */
function compilableInput(input: Record<string, any>, note: (m: string) => void): Record<string, any> {
  const compiles = (s: unknown) => {
    try {
      z.fromJSONSchema(s as never);
      return true;
    } catch {
      return false;
    }
  };
  if (compiles(input)) return input;
  const properties = { ...input.properties };
  for (const [k, s] of Object.entries(properties))
    if (!compiles({ type: 'object', properties: { [k]: s } })) {
      properties[k] = { description: (s as { description?: string }).description ?? '' };
      note(`input "${k}" has a schema this runtime cannot check: it accepts any value`);
    }
  const loosened = { ...input, properties };
  return compiles(loosened) ? loosened : { type: 'object' };
}

/**
 * Converts an OpenAPI 3.0/3.1 or Swagger 2.0 document (an object, or its YAML or JSON text) into a draft
 * declarative connector, one action per operation, with warnings naming what was dropped or guessed.
 * The document is all that is read: a `$ref` outside it is refused, never fetched.
 */
export async function importOpenApi(document: unknown, opts: ImportOptions): Promise<ImportResult> {
  const doc = await readDocument(document);
  const warnings: ImportWarning[] = [];

  const given = opts.baseUrl?.replace(/\/+$/, '') ?? documentBaseUrl(doc);
  const baseUrl = given && DeclarativeConnector.shape.baseUrl.safeParse(given).success ? given : undefined;
  if (!baseUrl)
    throw new OpenApiImportError(
      'body.baseUrl',
      'required',
      `is required: the document gives no absolute server URL (${doc.swagger ? 'host' : 'servers[0].url'})`,
    );

  const wanted = opts.operations ? new Set(opts.operations) : undefined;
  const found = new Set<string>();
  const unique = uniqueIds();
  const actions: DraftAction[] = [];
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths ?? {})) {
    if (!item || typeof item !== 'object') continue;
    for (const m of UNSUPPORTED)
      if (item[m] && (!wanted || wanted.has(item[m].operationId)))
        warnings.push({
          operation: item[m].operationId ?? `${m.toUpperCase()} ${path}`,
          message: `${m.toUpperCase()} operations are not supported: skipped`,
        });
    for (const m of METHODS) {
      const op = item[m];
      if (!op || typeof op !== 'object') continue;
      const method = m.toUpperCase() as DraftAction['request']['method'];
      const hasId = typeof op.operationId === 'string' && op.operationId.length > 0;
      const baseId = hasId ? slugId(op.operationId) : synthesizedId(method, path);
      const label = hasId ? (op.operationId as string) : `${method} ${path}`;
      const key = hasId ? op.operationId : baseId;
      if (wanted && !wanted.has(key)) continue;
      found.add(key);
      const id = unique(baseId);
      const converted = operationAction({
        method,
        path,
        op,
        shared: Array.isArray(item.parameters) ? item.parameters : [],
        consumes: doc.consumes,
        swagger: !!doc.swagger,
      });
      const notes = [...converted.warnings];
      if (!hasId)
        notes.unshift(`it has no operationId: its action id "${id}" was made from the method and path`);
      else if (id !== baseId) notes.unshift(`its action id "${baseId}" is taken: it became "${id}"`);
      const input = compilableInput(converted.action.input, (n) => notes.push(n));
      // An action the declarative format would refuse is left out, so the draft as a whole stays valid.
      const checked = DeclarativeAction.safeParse({ id, ...converted.action, input });
      if (checked.success) actions.push(checked.data);
      else {
        const issue = checked.error.issues[0]!;
        notes.push(`it was skipped: ${issue.path.join('.')} ${issue.message}`);
      }
      for (const message of notes) warnings.push({ operation: label, message });
    }
  }

  const missing = (opts.operations ?? []).map((o, i) => [o, i] as const).filter(([o]) => !found.has(o));
  if (missing.length)
    throw new OpenApiImportError(
      `body.operations[${missing[0]![1]}]`,
      'unknown_operation',
      `names no operation of the document ("${missing[0]![0]}"${missing.length > 1 ? ` and ${missing.length - 1} more` : ''})`,
    );
  if (!actions.length)
    throw new OpenApiImportError('body.document.paths', 'min', 'has no operation to import');
  if (actions.length > MAX_ACTIONS)
    throw new OpenApiImportError(
      'body.operations',
      'max',
      `is required for this document: it has ${actions.length} operations and a connector holds at most ${MAX_ACTIONS}; list the ones to import`,
    );

  const info = doc.info ?? {};
  const docsUrl = doc.externalDocs?.url;
  const draft = {
    id: opts.id,
    name: (opts.name ?? (String(info.title ?? '').trim() || opts.id)).slice(0, 255),
    description: String(info.description ?? info.title ?? '')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 2000),
    category: opts.category ?? 'developer',
    icon: opts.id,
    ...(typeof docsUrl === 'string' && DeclarativeConnector.shape.docs.safeParse(docsUrl).success
      ? { docs: docsUrl }
      : {}),
    baseUrl,
    auth: documentAuth(doc, baseUrl, warnings),
    actions,
  };
  const parsed = DeclarativeConnector.safeParse(draft);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new OpenApiImportError(
      `body.document`,
      'convert',
      `could not be converted: ${issue.path.join('.')} ${issue.message}`,
    );
  }
  compileDeclarative(parsed.data);
  return { definition: parsed.data, warnings };
}
