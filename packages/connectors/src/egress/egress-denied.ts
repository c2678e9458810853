/** A request the egress policy refused before any connection to the target was opened. */
export class EgressDenied extends Error {
  override name = 'EgressDenied';
  readonly code = 'EGRESS_DENIED';

  constructor(
    /** The host as the URL names it. */
    readonly host: string,
    /** The rule that refused it: `scheme`, `loopback`, `private`, `linkLocal`, ... */
    readonly rule: string,
    /** The rule in words, with the range that matched. */
    readonly reason: string,
  ) {
    super(`The egress policy refused ${host}: ${reason}`);
  }
}
