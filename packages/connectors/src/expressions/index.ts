export {
  configureExpressions,
  DEFAULT_EXPRESSION_TIMEOUT_MS,
  evaluateExpression,
  expressionPoolEvents,
  expressionPoolStats,
  expressionProblem,
} from './evaluate-expression.ts';
export {
  type EvaluateOptions,
  ExpressionPool,
  type ExpressionPoolEvents,
  type ExpressionPoolOptions,
  type ExpressionPoolStats,
  type WorkerStartFailure,
} from './expression-pool.ts';
export { lookupPath } from './path-lookup.ts';
