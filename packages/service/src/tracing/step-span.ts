import type { Step } from '@inlay/contract';
import type { StepOutcome } from '../engine/step-runner.ts';
import { inSpan, SpanStatusCode } from './tracing.ts';

/** Runs an action step in a span naming its connector, action, occurrence and attempts; never its data. */
export function stepSpan(
  step: Step,
  occurrence: string,
  run: () => Promise<StepOutcome>,
): Promise<StepOutcome> {
  return inSpan(
    `inlay.step ${step.connector}.${step.action}`,
    {
      attributes: {
        'inlay.step.id': occurrence,
        'inlay.connector': step.connector,
        'inlay.action': step.action,
      },
    },
    async (span) => {
      const outcome = await run();
      span.setAttributes({
        'inlay.step.attempts': outcome.attempts,
        'inlay.step.status': outcome.ok ? 'succeeded' : 'failed',
        ...(outcome.ok ? {} : { 'inlay.step.error': outcome.failure.code }),
      });
      if (!outcome.ok) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.failure.code });
      return outcome;
    },
  );
}
