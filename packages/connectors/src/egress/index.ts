export {
  type AddressRefusal,
  classifyAddress,
  embeddedIPv4,
  parseAddress,
} from './address-rules.ts';
export {
  allowsAddress,
  allowsHost,
  type EgressAllowEntry,
  EgressAllowError,
  parseEgressAllow,
} from './allow-list.ts';
export { parseCredentialOrigins } from './credential-origins.ts';
export { EgressDenied } from './egress-denied.ts';
export { type EgressFetchOptions, egressFetch } from './egress-fetch.ts';
export {
  type EgressConnectOptions,
  EgressPolicy,
  type EgressPolicyOptions,
  effectivePort,
  type Resolve,
} from './egress-policy.ts';
export { asPathSegment, dotSegmentProblem } from './path-segments.ts';
export { requestHeaderProblem } from './request-headers.ts';
