import type { FormData, WorkflowDefinition } from '@inlay/contract';

/**
 * `config` of a run: the installation's values for this workflow (its `formData` blocks, by field name),
 * with the definition's defaults for fields the user left out.
 */
export function configValues(
  def: WorkflowDefinition,
  formData: unknown,
  workflowId: string,
): Record<string, unknown> {
  // A Map, then fromEntries: a field named `__proto__` becomes a value, never the object's prototype.
  const out = new Map<string, unknown>();
  for (const f of def.config) if (f.default !== undefined) out.set(f.name, f.default);
  const blocks = Array.isArray(formData) ? (formData as FormData[]) : [];
  for (const block of blocks) {
    if (block?.workflowId !== workflowId || !Array.isArray(block.fields)) continue;
    for (const field of block.fields) if (field.value !== undefined) out.set(field.name, field.value);
  }
  return Object.fromEntries(out);
}
