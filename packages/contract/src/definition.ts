import { z } from 'zod';
import { LIMITS } from './common.ts';

export const TRIGGER_TYPES = ['manual', 'event', 'webhook', 'schedule'] as const;
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
  ])
  .meta({ id: 'Trigger' });
export type Trigger = z.infer<typeof Trigger>;

export const Step = z
  .object({
    id: z.uuid(),
    name: z.string().max(LIMITS.name).optional(),
    connector: Slug,
    action: Slug,
    input: z.record(z.string(), z.unknown()).default({}),
    timeoutMs: z.number().int().min(1).max(600_000).optional(),
    retries: z.number().int().min(0).max(10).optional(),
  })
  .strict()
  .meta({ id: 'Step' });
export type Step = z.infer<typeof Step>;

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
    steps: z.array(Step).min(1).max(LIMITS.steps),
    config: z.array(ConfigField).max(LIMITS.configFields).default([]),
  })
  .strict()
  .superRefine((def, ctx) => {
    const ids = new Set<string>();
    def.steps.forEach((s, i) => {
      if (ids.has(s.id))
        ctx.addIssue({ code: 'custom', path: ['steps', i, 'id'], message: 'step ids must be unique' });
      ids.add(s.id);
    });
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
