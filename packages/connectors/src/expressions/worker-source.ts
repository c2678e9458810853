/**
 * The code of an expression worker, run as `node -e WORKER_SOURCE` in a child process of its own with an IPC
 * channel: a string, so the same worker starts from the TypeScript sources (tests, tsx) and from the built
 * package. It reads `{jsonataPath, budgetBytes, nice}` from `INLAY_EXPRESSION_WORKER`, keeps compiled expressions,
 * and answers `{id, expression, data}` with `{id, json}` (the result as JSON text; absent when undefined) or
 * `{id, code, message}`. Once JSONata is loaded it sends `{ready: true}`: a worker that exits before that
 * failed to start (the pool backs off before the next start).
 *
 * A process, not a worker thread: one allocation past V8's heap limit aborts the process it happens in, and a
 * worker thread shares the service's. So the worst an expression can do is end its own worker, which the pool
 * reports as `expression_memory`. The worker still checks its heap against a soft budget at every evaluation
 * step, through JSONata's entry hook (collecting garbage first when it looks over), so that most hogs fail
 * cleanly without a restart.
 */
export const WORKER_SOURCE = `
const workerData = JSON.parse(process.env.INLAY_EXPRESSION_WORKER);
// The service went away (or closed the pool): so does the worker.
process.on('disconnect', () => process.exit(0));
const v8 = require('node:v8');
const vm = require('node:vm');
// The heap figure counts garbage too: before calling an expression over budget, collect once. (The flag
// only exposes \`gc\` to contexts created after it.)
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc');
const jsonata = require(workerData.jsonataPath);
// Expressions yield the CPU to the service (niceness 19 unless the pool says otherwise): the API keeps its
// latency while runaways burn until their deadline.
try {
  require('node:os').setPriority(0, workerData.nice ?? 19);
} catch {}
const budget = workerData.budgetBytes;
const ENTRY = Symbol.for('jsonata.__evaluate_entry');
const cache = new Map();
let threshold = budget;

class OverBudget extends Error {}

function onEntry() {
  if (v8.getHeapStatistics().used_heap_size <= threshold) return;
  collect();
  const live = v8.getHeapStatistics().used_heap_size;
  if (live > budget) throw new OverBudget('over budget');
  // Live data close to the budget: collect again only after another half budget, not every check.
  threshold = Math.max(budget, live + budget / 2);
}

function compile(expression) {
  let e = cache.get(expression);
  if (!e) {
    e = jsonata(expression);
    e.assign(ENTRY, onEntry);
    if (cache.size >= 500) cache.delete(cache.keys().next().value);
    cache.set(expression, e);
  }
  return e;
}

process.on('message', async ({ id, expression, data }) => {
  let result;
  try {
    threshold = budget;
    result = await compile(expression).evaluate(data);
  } catch (err) {
    const over = err instanceof OverBudget;
    process.send({
      id,
      code: over ? 'expression_memory' : 'expression_error',
      message: over ? 'memory budget exceeded' : String((err && err.message) || err),
    });
    return;
  }
  try {
    // A JSON text is cheap to pass back and keeps data only (JSONata marks arrays, may return functions).
    process.send({ id, json: result === undefined ? undefined : (JSON.stringify(result) ?? 'null') });
  } catch (err) {
    process.send({ id, code: 'expression_error', message: String((err && err.message) || err) });
  }
});
process.send({ ready: true });
`;
