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
  const out: Record<string, unknown> = {};
  for (const f of def.config) if (f.default !== undefined) out[f.name] = f.default;
  const blocks = Array.isArray(formData) ? (formData as FormData[]) : [];
  for (const block of blocks) {
    if (block?.workflowId !== workflowId || !Array.isArray(block.fields)) continue;
    for (const field of block.fields) if (field.value !== undefined) out[field.name] = field.value;
  }
  return out;
}
