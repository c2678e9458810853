import { type ConnectorDefinition, type ConnectorRuntime, compileDeclarative } from '@inlay/connectors';
import type { DeclarativeConnector } from '@inlay/contract';
import { asc, eq } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { ReadCache } from '../store/read-cache.ts';
import { customConnectors } from '../store/schema.ts';
import type { Db, Tx } from '../store/store.ts';

type Row = Pick<typeof customConnectors.$inferSelect, 'id' | 'version' | 'definition'>;

/**
 * The connectors an account can use: the built-ins plus its own (`POST /connectors`). Every lookup that names a
 * connector goes through `forAccount`, so another account's connector is as absent as a missing one. The
 * account's runtime is kept in the read cache until a write to `custom_connectors` (on any node, announced by
 * the change feed) makes it stale; compiled definitions are kept per id and version, which never change.
 */
export class ConnectorRegistry {
  readonly #compiled = new LRUCache<string, ConnectorDefinition>({ max: 2_000 });

  constructor(
    private readonly db: Db,
    /** The built-in catalog's runtime: its egress policy and agents serve every account. */
    readonly builtins: ConnectorRuntime,
    private readonly reads: ReadCache,
  ) {}

  /**
   * The runtime that knows the built-ins and this account's own connectors. Inside a transaction pass it as `q`
   * (PGlite runs one statement at a time: a read outside the open transaction would wait for it forever).
   */
  forAccount(accountId: string, q: Db | Tx = this.db): Promise<ConnectorRuntime> {
    let bytes = 0;
    return this.reads.through(
      `connectors:${accountId}`,
      async () => {
        const rows = await q
          .select({
            id: customConnectors.id,
            version: customConnectors.version,
            definition: customConnectors.definition,
          })
          .from(customConnectors)
          .where(eq(customConnectors.accountId, accountId))
          .orderBy(asc(customConnectors.slug));
        if (!rows.length) return this.builtins;
        bytes = rows.reduce((n, r) => n + JSON.stringify(r.definition).length, 0);
        return this.builtins.withCustom(rows.map((r) => this.compile(r)));
      },
      () => ({ accountId, bytes: 256 + bytes * 4 }),
    );
  }

  /** A runtime that runs `def`, which came from one of `forAccount`'s runtimes (the built-ins, or an account's own). */
  runtimeOf(def: ConnectorDefinition): ConnectorRuntime {
    return def.custom ? this.builtins.withCustom([def]) : this.builtins;
  }

  /** A stored definition as the runtime runs it, marked as the account's own. */
  compile(row: Row): ConnectorDefinition {
    const key = `${row.id}:${row.version}`;
    const hit = this.#compiled.get(key);
    if (hit) return hit;
    const def = {
      ...compileDeclarative(row.definition as DeclarativeConnector),
      custom: { key: row.id, version: row.version },
    };
    this.#compiled.set(key, def);
    return def;
  }
}
