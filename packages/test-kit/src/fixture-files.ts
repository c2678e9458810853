import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/**
 * The kit's fixture files (`fixtures/`): providers' webhook payloads and real providers' OpenAPI documents (see
 * fixtures/openapi/README.md for where each came from). `.gz` files are read unzipped.
 */
export function readFixture(name: string): string {
  const bytes = readFileSync(new URL(`../fixtures/${name}`, import.meta.url));
  return (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

/** A fixture file parsed as JSON. */
export const readJsonFixture = <T = unknown>(name: string): T => JSON.parse(readFixture(name)) as T;
