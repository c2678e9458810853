import { ConnectorError } from '@inlay/connectors';
import type { StepError } from '@inlay/contract';
import { TemplateError } from './templates.ts';

/** Why a step failed, in the shape the log stores; `transient` says whether another attempt may help. */
export class StepFailure extends Error {
  override name = 'StepFailure';
  constructor(
    readonly code: string,
    message: string,
    readonly opts: { transient?: boolean; statusCode?: number; retryAfterMs?: number; body?: unknown } = {},
  ) {
    super(message);
  }

  get transient(): boolean {
    return this.opts.transient ?? false;
  }

  toStepError(): StepError {
    return {
      message: this.message,
      code: this.code,
      ...(this.opts.statusCode !== undefined ? { statusCode: this.opts.statusCode } : {}),
    };
  }

  /** Maps whatever a step threw: connector errors keep their verdict, anything else is a permanent failure. */
  static from(err: unknown): StepFailure {
    if (err instanceof StepFailure) return err;
    if (err instanceof ConnectorError)
      return new StepFailure(err.code, err.message, {
        transient: err.transient,
        statusCode: err.statusCode,
        retryAfterMs: err.retryAfterMs,
        body: err.body,
      });
    if (err instanceof TemplateError) return new StepFailure(err.code, err.message);
    return new StepFailure('step_error', (err as Error)?.message || String(err));
  }
}
