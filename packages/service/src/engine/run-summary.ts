import type { Db, Tx } from '../store/store.ts';
import type { DefinitionCache } from '../workflows/definitions.ts';
import type { NewRun } from './runs.ts';
import { resolveTemplates } from './templates.ts';

/** A summary is computed while runs are created, so its template gets a short time limit. */
const SUMMARY_TIMEOUT_MS = 1_000;

/** Longest summary kept: it is one line in a run list. */
export const SUMMARY_MAX = 200;

/** A template's value as one line of text: whitespace folded, cut to SUMMARY_MAX; null when empty. */
export function oneLine(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = (typeof value === 'string' ? value : JSON.stringify(value)).replace(/\s+/g, ' ').trim();
  if (!text) return null;
  return text.length > SUMMARY_MAX ? `${text.slice(0, SUMMARY_MAX - 1)}…` : text;
}

/**
 * Fills each run's `summary` from its definition's `summary` template, evaluated over `{trigger}`. A
 * definition without one, or a template that fails on this data, leaves it null: a summary never stops a run.
 * `db` is the transaction the runs are created in, when there is one (a definition not cached yet is read
 * through it).
 */
export async function summarizeRuns(defs: DefinitionCache, runs: NewRun[], db?: Db | Tx): Promise<void> {
  const pending = runs.filter((r) => r.summary === undefined && r.installationId);
  if (!pending.length) return;
  const compiled = await defs.getMany(
    pending.map((r) => ({ workflowId: r.workflowId, version: r.version })),
    db,
  );
  for (const run of pending) {
    const template = compiled.get(defs.key(run.workflowId, run.version))?.definition.summary;
    run.summary = null;
    if (!template) continue;
    try {
      run.summary = oneLine(
        await resolveTemplates(template, { trigger: run.trigger ?? {} }, 'summary', {
          timeoutMs: SUMMARY_TIMEOUT_MS,
          tenant: run.accountId,
        }),
      );
    } catch {
      // A template that does not fit this run's data (a missing field is not an error; a type error is).
    }
  }
}
