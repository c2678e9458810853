export {
  githubSignature,
  STRIPE_TOLERANCE_S,
  signatureVerifiers,
  stripeSignature,
  verifyGithubSignature,
  verifyStripeSignature,
} from './signatures.ts';
export {
  comparePositions,
  findTrigger,
  MAX_ITEMS_PER_DELIVERY,
  MAX_ITEMS_PER_POLL,
  type PollOptions,
  type PollResult,
  pollTrigger,
  pollTriggerPages,
  receiveTrigger,
  subscribeTrigger,
  triggerDeliveryItems,
  triggerInputProblem,
  unsubscribeTrigger,
  verifyTriggerDelivery,
} from './trigger-runtime.ts';
