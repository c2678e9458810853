import { ConnectorError } from '../errors.ts';
import type { CallOptions, ConnectorRuntime } from '../runtime.ts';
import type {
  ConnectorDefinition,
  HttpRequestSpec,
  ItemPosition,
  PollTrigger,
  TriggerDefinition,
  TriggerDelivery,
  TriggerItem,
  WebhookTrigger,
} from '../types.ts';

/**
 * No further page is read once a poll holds this many items (pages stop earlier at a seen item), and a single
 * page holding more is cut to this many.
 */
export const MAX_ITEMS_PER_POLL = 500;
const MAX_PAGES = 10;

const fail = (message: string, code = 'invalid_input') =>
  new ConnectorError(message, { code, transient: false });

/** A connector's trigger, or a ConnectorError naming what is missing. */
export function findTrigger(runtime: ConnectorRuntime, connectorId: string, triggerId: string) {
  const def = runtime.get(connectorId);
  if (!def) throw fail(`Unknown connector ${connectorId}`, 'unknown_connector');
  const trigger = def.triggers?.find((t) => t.id === triggerId);
  if (!trigger) throw fail(`${def.name} has no trigger ${triggerId}`, 'unknown_trigger');
  return { def, trigger };
}

/** Why a trigger's input is refused (`path: message`), or undefined when it is valid. */
export function triggerInputProblem(trigger: TriggerDefinition, input: unknown): string | undefined {
  const r = trigger.input.safeParse(input ?? {});
  if (r.success) return undefined;
  const issue = r.error.issues[0];
  return `${issue?.path.length ? issue.path.join('.') : 'input'}: ${issue?.message}`;
}

function parseInput(trigger: TriggerDefinition, input: unknown) {
  const r = trigger.input.safeParse(input ?? {});
  if (!r.success) throw fail(`Invalid trigger input: ${triggerInputProblem(trigger, input)}`);
  return r.data;
}

/** Reads id, position and run data of one raw item; an item without an id is the provider's failure. */
async function toItem(trigger: TriggerDefinition, raw: unknown): Promise<TriggerItem> {
  const id = await trigger.itemId(raw);
  if (typeof id !== 'string' || id === '') throw fail('an item has no id', 'provider_error');
  const position = await trigger.itemPosition?.(raw);
  return {
    id,
    ...(position !== undefined && position !== null ? { position } : {}),
    data: trigger.output ? await trigger.output(raw) : raw,
  };
}

/** Orders positions: numbers numerically, ISO times as text. */
export const comparePositions = (a: ItemPosition, b: ItemPosition) =>
  typeof a === 'number' && typeof b === 'number'
    ? a - b
    : String(a) < String(b)
      ? -1
      : String(a) > String(b)
        ? 1
        : 0;

export interface PollOptions extends CallOptions {
  /** The high-water mark of earlier polls. */
  since?: ItemPosition;
  /** Whether an id was already seen: paging of a newest-first list stops at the first page holding one. */
  seen?: (id: string) => boolean;
  maxItems?: number;
}

/** What one poll read: its items (oldest first) and whether an oldest-first list goes on past them. */
export interface PollResult {
  items: TriggerItem[];
  /**
   * Only for an oldest-first list: the poll stopped at its cap with pages left. A poll from the new
   * high-water mark (`since`) reads on from there. A newest-first list cut at the cap has only older items left.
   */
  more: boolean;
}

/**
 * Lists a poll trigger's recent items, following pages until a seen item (newest-first lists), the end of the
 * list or the cap. Returns every item read, oldest first; the caller decides which are new.
 */
export async function pollTrigger(
  runtime: ConnectorRuntime,
  connectorId: string,
  triggerId: string,
  input: unknown,
  opts: PollOptions = {},
): Promise<TriggerItem[]> {
  return (await pollTriggerPages(runtime, connectorId, triggerId, input, opts)).items;
}

/** `pollTrigger`, also saying whether an oldest-first list has pages left past the cap. */
export async function pollTriggerPages(
  runtime: ConnectorRuntime,
  connectorId: string,
  triggerId: string,
  input: unknown,
  opts: PollOptions = {},
): Promise<PollResult> {
  const { def, trigger } = findTrigger(runtime, connectorId, triggerId);
  if (trigger.kind !== 'poll')
    throw fail(`${def.name} ${triggerId} is not a polling trigger`, 'unknown_trigger');
  const parsed = parseInput(trigger, input);
  const max = opts.maxItems ?? MAX_ITEMS_PER_POLL;
  const oldestFirst = trigger.order === 'oldest';
  const out: TriggerItem[] = [];
  let req: HttpRequestSpec | undefined = await trigger.request(
    parsed,
    runtime.settings(def, opts.credential),
    opts.since,
  );
  let call: CallOptions = opts;
  const refresh = opts.onUnauthorized;
  if (refresh)
    call = {
      ...opts,
      onUnauthorized: async () => {
        const fresh = await refresh();
        if (fresh) call = { ...call, credential: fresh };
        return fresh;
      },
    };
  for (let page = 0; req && page < (trigger.paging?.maxPages ?? MAX_PAGES) && out.length < max; page++) {
    const res = await runtime.request(def, req, call);
    // Pages are taken whole (`maxItems` 1 means "the first page"), but never more than MAX_ITEMS_PER_POLL of one
    // page: the rest of a larger page waits for the next poll (oldest first) or is older than what this poll
    // takes (newest first). A loop, not push(...items): a page can hold 200,000 items.
    const { items, cut } = await readItems(def, trigger, res.body, parsed, Math.max(max, MAX_ITEMS_PER_POLL));
    for (const item of items) out.push(item);
    if (!oldestFirst && opts.seen && items.some((i) => opts.seen!(i.id))) return read(out, false);
    if (!oldestFirst && opts.since !== undefined && items.some((i) => isBefore(i, opts.since!)))
      return read(out, false);
    if (cut) return read(out, true);
    req = trigger.paging?.next(res, req);
  }
  // Left with a next page: the cap (items or pages) ended the poll, not the list.
  return read(out, req !== undefined);

  function read(items: TriggerItem[], capped: boolean): PollResult {
    return oldestFirst ? { items, more: capped } : { items: items.reverse(), more: false };
  }
}

const isBefore = (item: TriggerItem, since: ItemPosition) =>
  item.position !== undefined && comparePositions(item.position, since) < 0;

/** A page's items, at most `room` of them (the first ones, in the provider's order); `cut` says some were left. */
async function readItems(
  def: ConnectorDefinition,
  trigger: PollTrigger | WebhookTrigger,
  body: unknown,
  input: unknown,
  room: number,
): Promise<{ items: TriggerItem[]; cut: boolean }> {
  try {
    const raw = trigger.kind === 'poll' ? await trigger.items(body, input) : [];
    if (!Array.isArray(raw)) throw new TypeError('items is not a list');
    const items: TriggerItem[] = [];
    const take = Math.min(raw.length, Math.max(0, room));
    for (let i = 0; i < take; i++) items.push(await toItem(trigger, raw[i]));
    return { items, cut: raw.length > take };
  } catch (err) {
    if (err instanceof ConnectorError) throw err;
    throw fail(`${def.name} answered ${trigger.id} in a shape it does not use`, 'provider_error');
  }
}

function webhookTrigger(runtime: ConnectorRuntime, connectorId: string, triggerId: string) {
  const { def, trigger } = findTrigger(runtime, connectorId, triggerId);
  if (trigger.kind !== 'webhook')
    throw fail(`${def.name} ${triggerId} is not a webhook trigger`, 'unknown_trigger');
  return { def, trigger };
}

/** Subscribes a webhook trigger toward `hook.url`; returns the provider's subscription id and signing secret. */
export async function subscribeTrigger(
  runtime: ConnectorRuntime,
  connectorId: string,
  triggerId: string,
  input: unknown,
  hook: { url: string; secret: string },
  opts: CallOptions = {},
): Promise<{ id: string; secret: string }> {
  const { def, trigger } = webhookTrigger(runtime, connectorId, triggerId);
  const parsed = parseInput(trigger, input);
  const res = await runtime.request(
    def,
    await trigger.subscribe(parsed, hook, runtime.settings(def, opts.credential)),
    opts,
  );
  const sub = trigger.subscription(res);
  if (!sub?.id) throw fail(`${def.name} created no subscription id`, 'provider_error');
  return { id: String(sub.id), secret: sub.secret ?? hook.secret };
}

/** Removes a subscription; one the provider no longer knows (404, 410) counts as removed. */
export async function unsubscribeTrigger(
  runtime: ConnectorRuntime,
  connectorId: string,
  triggerId: string,
  input: unknown,
  subscriptionId: string,
  opts: CallOptions = {},
): Promise<void> {
  const { def, trigger } = webhookTrigger(runtime, connectorId, triggerId);
  const parsed = parseInput(trigger, input);
  try {
    await runtime.request(
      def,
      await trigger.unsubscribe(parsed, subscriptionId, runtime.settings(def, opts.credential)),
      opts,
    );
  } catch (err) {
    if (err instanceof ConnectorError && (err.statusCode === 404 || err.statusCode === 410)) return;
    throw err;
  }
}

/** Most items one delivery may carry; more are refused whole (`too_many_items`), as a poll takes at most its own cap. */
export const MAX_ITEMS_PER_DELIVERY = 1000;

/** Whether a delivery's signature verifies, from its headers and raw bytes alone (nothing parsed or inflated yet). */
export function verifyTriggerDelivery(
  runtime: ConnectorRuntime,
  connectorId: string,
  triggerId: string,
  delivery: Pick<TriggerDelivery, 'headers' | 'rawBody'>,
  secret: string,
  now = new Date(),
): boolean {
  const { trigger } = webhookTrigger(runtime, connectorId, triggerId);
  return trigger.verify({ ...delivery, body: undefined }, secret, now);
}

/** A verified delivery's items, oldest first as delivered; more than MAX_ITEMS_PER_DELIVERY is an error. */
export async function triggerDeliveryItems(
  runtime: ConnectorRuntime,
  connectorId: string,
  triggerId: string,
  delivery: TriggerDelivery,
): Promise<TriggerItem[]> {
  const { trigger } = webhookTrigger(runtime, connectorId, triggerId);
  const raw = await trigger.items(delivery);
  if (raw.length > MAX_ITEMS_PER_DELIVERY)
    throw new ConnectorError(
      `The delivery holds ${raw.length} items; one delivery may hold at most ${MAX_ITEMS_PER_DELIVERY}`,
      { code: 'too_many_items', transient: false },
    );
  const out: TriggerItem[] = [];
  for (const r of raw) out.push(await toItem(trigger, r));
  return out;
}

/**
 * Verifies a delivery's signature and reads its items (oldest first as delivered); undefined when the
 * signature is missing or wrong.
 */
export async function receiveTrigger(
  runtime: ConnectorRuntime,
  connectorId: string,
  triggerId: string,
  delivery: TriggerDelivery,
  secret: string,
  now = new Date(),
): Promise<TriggerItem[] | undefined> {
  if (!verifyTriggerDelivery(runtime, connectorId, triggerId, delivery, secret, now)) return undefined;
  return triggerDeliveryItems(runtime, connectorId, triggerId, delivery);
}
