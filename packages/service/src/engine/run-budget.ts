import type { StepError } from '@inlay/contract';

/**
 * Ends a run that went past its budget (INLAY_MAX_STEPS_PER_RUN steps, INLAY_MAX_RUN_OUTPUT_MB of stored step
 * data). Thrown, not returned as a step's failure, so no `onError: "continue"` and no enclosing loop can go on.
 */
export class RunBudgetExceeded extends Error {
  override name = 'RunBudgetExceeded';
  constructor(readonly stepError: StepError) {
    super(stepError.message);
  }

  static steps(max: number): RunBudgetExceeded {
    return new RunBudgetExceeded({
      code: 'run_step_budget',
      message: `The run stopped at its budget of ${max} steps (INLAY_MAX_STEPS_PER_RUN), loops included. Loop over fewer items, or ask the operator to raise the budget.`,
    });
  }

  static bytes(maxBytes: number): RunBudgetExceeded {
    return new RunBudgetExceeded({
      code: 'run_output_budget',
      message: `The run stopped at its budget of ${Math.round(maxBytes / 1024 / 1024)} MB of step data (INLAY_MAX_RUN_OUTPUT_MB). Have the steps return less, or ask the operator to raise the budget.`,
    });
  }
}
