export { type ImportWarning, OpenApiImportError } from './import-error.ts';
export { type ImportOptions, type ImportResult, importOpenApi } from './import-openapi.ts';
