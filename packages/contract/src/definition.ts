import { z } from 'zod';
import { LIMITS } from './common.ts';

export const TRIGGER_TYPES = ['manual', 'event', 'webhook', 'schedule', 'app'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];
export const FIELD_TYPES = ['text', 'textarea', 'number', 'boolean', 'select', 'multiselect'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

const Slug = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z][a-z0-9_-]*$/, 'must be a lower-case slug');
const EventName = z
  .string()
  .min(1)
  .max(LIMITS.name)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'must contain only letters, digits, ".", "_", ":" and "-"');

export const Trigger = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('manual') }).strict(),
    z.object({ type: z.literal('event'), event: EventName }).strict(),
    z.object({ type: z.literal('webhook') }).strict(),
    z
      .object({
        type: z.literal('schedule'),
        cron: z.string().min(1).max(120).meta({ description: '5- or 6-field cron expression' }),
        timezone: z.string().max(64).optional(),
      })
      .strict(),
    z
      .object({
        type: z.literal('app'),
        connector: Slug.meta({
          description: 'The connector whose trigger starts the workflow, e.g. `stripe`',
        }),
        trigger: Slug.meta({ description: "The connector's trigger id, e.g. `new_customer`" }),
        input: z
          .record(z.string(), z.unknown())
          .default({})
          .meta({ description: "The trigger's settings, checked against its `input` schema at publish" }),
        every: z
          .string()
          .regex(/^[1-9][0-9]{0,6}(ms|s|m|h)$/, 'must be a duration such as "30s", "5m" or "1h"')
          .optional()
          .meta({
            description:
              'How often a polling trigger asks the app (default `5m`; at least `INLAY_POLL_MIN_INTERVAL_MS`)',
          }),
      })
      .strict(),
  ])
  .meta({ id: 'Trigger' });
export type Trigger = z.infer<typeof Trigger>;

const OnError = z.enum(['fail', 'continue']).optional().meta({
  description:
    'Additive: `continue` records the error and goes on (later steps read `steps.<id>.error`); default `fail` ends the run',
});

/** An action step: one connector action. `type` may be omitted (every step before control flow was one). */
export const Step = z
  .object({
    id: z.uuid(),
    type: z.literal('action').optional(),
    name: z.string().max(LIMITS.name).optional(),
    connector: Slug,
    action: Slug,
    input: z.record(z.string(), z.unknown()).default({}),
    timeoutMs: z.number().int().min(1).max(600_000).optional(),
    retries: z.number().int().min(0).max(10).optional(),
    onError: OnError,
  })
  .strict()
  .meta({ id: 'Step' });
export type Step = z.infer<typeof Step>;

/** A `{{ JSONata }}` template: the condition of an `if`, the items of a `forEach`. */
const Template = z
  .string()
  .trim()
  .min(1)
  .max(LIMITS.text)
  .regex(/^\{\{[\s\S]*\}\}$/, 'must be one {{ }} template');

/** Names a `forEach` may not take for its item: they would hide the run's own scope. */
const RESERVED_NAMES = ['trigger', 'config', 'steps', 'user', 'execution', 'index'];

export interface IfStep {
  id: string;
  type: 'if';
  name?: string;
  condition: string;
  then: AnyStep[];
  else: AnyStep[];
  onError?: 'fail' | 'continue';
}
export interface ForEachStep {
  id: string;
  type: 'forEach';
  name?: string;
  items: string;
  as: string;
  concurrency: number;
  steps: AnyStep[];
  onError?: 'fail' | 'continue';
}
/** Any step of a definition: an action, an `if` or a `forEach`, nested to any depth. */
export type AnyStep = Step | IfStep | ForEachStep;

const stepList = () => z.array(AnyStep).max(LIMITS.steps);

export const IfStep = z
  .object({
    id: z.uuid(),
    type: z.literal('if'),
    name: z.string().max(LIMITS.name).optional(),
    condition: Template.meta({ description: 'A `{{ JSONata }}` template; a truthy result runs `then`' }),
    // biome-ignore lint/suspicious/noThenProperty: the issue's exact JSON names the branch `then`
    get then() {
      return stepList();
    },
    get else() {
      return stepList().default([]);
    },
    onError: OnError,
  })
  .strict()
  .meta({
    id: 'IfStep',
    description: 'Additive: runs `then` when the condition is truthy, else `else`',
  }) as unknown as z.ZodType<IfStep>;

export const ForEachStep: z.ZodType<ForEachStep> = z
  .object({
    id: z.uuid(),
    type: z.literal('forEach'),
    name: z.string().max(LIMITS.name).optional(),
    items: Template.meta({ description: 'A `{{ JSONata }}` template giving an array' }),
    as: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an identifier')
      .max(64)
      .refine((v) => !RESERVED_NAMES.includes(v), 'is a reserved name')
      .default('item')
      .meta({ description: 'The name of the current item inside (default `item`); `index` is its index' }),
    concurrency: z.number().int().min(1).max(10).default(1),
    get steps() {
      return stepList().min(1);
    },
    onError: OnError,
  })
  .strict()
  .meta({
    id: 'ForEachStep',
    description: "Additive: runs `steps` once per item; its output is each iteration's last step output",
  }) as unknown as z.ZodType<ForEachStep>;

export const AnyStep: z.ZodType<AnyStep> = z.lazy(() =>
  z.discriminatedUnion('type', [Step as z.ZodObject, IfStep as never, ForEachStep as never]).meta({
    // An action step may omit `type`, so the forms are told apart by `type` only when it is present:
    // the document lists them with `anyOf` (a `oneOf` discriminator cannot read an omitted property).
    override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
      jsonSchema.anyOf = jsonSchema.oneOf;
      delete jsonSchema.oneOf;
      delete jsonSchema.discriminator;
    },
  }),
) as unknown as z.ZodType<AnyStep>;

/** Every step of `steps`, nested ones included, depth first, with its path (e.g. `steps[0].then[1]`). */
export function* walkSteps(
  steps: readonly AnyStep[],
  path = 'steps',
): Generator<{ step: AnyStep; path: string }> {
  for (const [i, step] of steps.entries()) {
    const at = `${path}[${i}]`;
    yield { step, path: at };
    if (step.type === 'if') {
      yield* walkSteps(step.then, `${at}.then`);
      yield* walkSteps(step.else, `${at}.else`);
    } else if (step.type === 'forEach') yield* walkSteps(step.steps, `${at}.steps`);
  }
}

/** The action steps of `steps`, nested ones included. */
export function actionSteps(steps: readonly AnyStep[]): Step[] {
  const out: Step[] = [];
  for (const { step } of walkSteps(steps))
    if (step.type === undefined || step.type === 'action') out.push(step);
  return out;
}

const StaticOption = z.object({ value: z.string().max(LIMITS.name), label: z.string().max(LIMITS.name) });

export const ConfigField = z
  .object({
    stepId: z.uuid(),
    name: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an identifier'),
    displayName: z.string().min(1).max(LIMITS.name),
    description: z.string().max(LIMITS.text).optional(),
    type: z.enum(FIELD_TYPES),
    required: z.boolean().default(false),
    default: z.unknown().optional(),
    options: z
      .union([
        z.object({ source: Slug }).strict(),
        z.object({ values: z.array(StaticOption).min(1).max(LIMITS.array) }).strict(),
      ])
      .optional(),
  })
  .strict()
  .meta({ id: 'ConfigField' });
export type ConfigField = z.infer<typeof ConfigField>;

export const WorkflowDefinition = z
  .object({
    trigger: Trigger,
    summary: z.string().trim().min(1).max(LIMITS.text).optional().meta({
      description:
        'Additive: a one-line summary of a run for its log, a `{{ }}` template over `{trigger}`, e.g. `"Deal {{ trigger.name }}"`',
    }),
    steps: z.array(AnyStep).min(1).max(LIMITS.steps),
    config: z.array(ConfigField).max(LIMITS.configFields).default([]),
  })
  .strict()
  .superRefine((def, ctx) => {
    const ids = new Set<string>();
    let count = 0;
    for (const { step, path } of walkSteps(def.steps)) {
      count++;
      const at = path
        .split(/[.[\]]+/)
        .filter(Boolean)
        .map((k) => (/^\d+$/.test(k) ? Number(k) : k));
      if (ids.has(step.id))
        ctx.addIssue({ code: 'custom', path: [...at, 'id'], message: 'step ids must be unique' });
      ids.add(step.id);
      if (count === LIMITS.nestedSteps + 1)
        ctx.addIssue({
          code: 'custom',
          path: [...at],
          message: `a definition holds at most ${LIMITS.nestedSteps} steps, nested ones included`,
        });
    }
    const names = new Set<string>();
    def.config.forEach((f, i) => {
      if (!ids.has(f.stepId))
        ctx.addIssue({
          code: 'custom',
          path: ['config', i, 'stepId'],
          message: 'must name a step of this workflow',
        });
      if (names.has(f.name))
        ctx.addIssue({
          code: 'custom',
          path: ['config', i, 'name'],
          message: 'config field names must be unique',
        });
      names.add(f.name);
      if ((f.type === 'select' || f.type === 'multiselect') && !f.options)
        ctx.addIssue({
          code: 'custom',
          path: ['config', i, 'options'],
          message: 'select fields need options',
        });
    });
  })
  .meta({ id: 'WorkflowDefinition' });
export type WorkflowDefinition = z.infer<typeof WorkflowDefinition>;
export type WorkflowDefinitionInput = z.input<typeof WorkflowDefinition>;

/** Connectors that are engine built-ins and never listed on a workflow. */
export const HIDDEN_BUILTIN_CONNECTORS = ['transform', 'delay'] as const;
