/**
 * Items waiting per tenant, served in turn: `next()` takes the oldest item of the tenant whose turn it is, and
 * that tenant's next item (if any) waits until every other waiting tenant has had one. A tenant with a thousand
 * items and one with a single item are served alternately; within a tenant, first in, first out.
 */
export class TenantQueue<T> {
  /** Tenants with waiting items, in turn order (a Map keeps insertion order: a served tenant goes last). */
  readonly #byTenant = new Map<string, T[]>();
  #size = 0;

  /** How many items wait, over all tenants. */
  get size(): number {
    return this.#size;
  }

  push(tenant: string, item: T): void {
    const items = this.#byTenant.get(tenant);
    if (items) items.push(item);
    else this.#byTenant.set(tenant, [item]);
    this.#size++;
  }

  /** The next item by turns, or undefined when none waits. */
  next(): T | undefined {
    const first = this.#byTenant.entries().next();
    if (first.done) return undefined;
    const [tenant, items] = first.value;
    const item = items.shift()!;
    this.#size--;
    this.#byTenant.delete(tenant);
    if (items.length) this.#byTenant.set(tenant, items);
    return item;
  }

  /** Takes `item` out of its tenant's line (a cancelled or timed-out wait); false when it was not waiting. */
  remove(tenant: string, item: T): boolean {
    const items = this.#byTenant.get(tenant);
    const at = items?.indexOf(item) ?? -1;
    if (at < 0) return false;
    items!.splice(at, 1);
    this.#size--;
    if (items!.length === 0) this.#byTenant.delete(tenant);
    return true;
  }

  /** Every waiting item, in turn order, leaving none. */
  drain(): T[] {
    const out: T[] = [];
    for (let item = this.next(); item !== undefined; item = this.next()) out.push(item);
    return out;
  }
}
