/** A document that cannot be imported: names the request field and the rule it breaks (the service answers 422). */
export class OpenApiImportError extends Error {
  readonly field: string;
  readonly rule: string;

  constructor(field: string, rule: string, message: string) {
    super(`${field} ${message}`);
    this.name = 'OpenApiImportError';
    this.field = field;
    this.rule = rule;
  }
}

/** What the draft left out or guessed, for review before it is created. */
export interface ImportWarning {
  /** The operation's `operationId`, or `METHOD /path` when it has none; absent for document-wide notes. */
  operation?: string;
  message: string;
}
