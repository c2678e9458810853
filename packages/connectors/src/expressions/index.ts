export {
  configureExpressions,
  DEFAULT_EXPRESSION_TIMEOUT_MS,
  evaluateExpression,
  expressionProblem,
} from './evaluate-expression.ts';
export { type EvaluateOptions, ExpressionPool, type ExpressionPoolOptions } from './expression-pool.ts';
export { lookupPath } from './path-lookup.ts';
