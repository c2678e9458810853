import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type DealStage = 'open' | 'won' | 'lost';

export interface Deal {
  id: string;
  owner: string;
  name: string;
  company: string;
  amount: number;
  contactName: string;
  contactEmail: string;
  stage: DealStage;
  createdAt: string;
  updatedAt: string;
}

interface DemoData {
  /** The Inlay account key the demo backend uses; created on first start, never sent to a browser. */
  apiKey: string;
  deals: Deal[];
  /** Acme CRM's account-webhook endpoint in Inlay, with its signing secret (shown by Inlay only once). */
  webhook?: { url: string; endpointId: string; secret: string };
}

/** Acme CRM's own data (its API key and deals), one JSON file next to Inlay's PGlite data. */
export class DemoStore {
  readonly #file: string;
  #data: DemoData;

  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.#file = join(dataDir, 'acme-crm.json');
    this.#data = existsSync(this.#file)
      ? (JSON.parse(readFileSync(this.#file, 'utf8')) as DemoData)
      : { apiKey: `inlay_test_${randomBytes(24).toString('base64url')}`, deals: [] };
    this.#save();
  }

  get apiKey(): string {
    return this.#data.apiKey;
  }

  get webhook(): DemoData['webhook'] {
    return this.#data.webhook;
  }

  set webhook(w: DemoData['webhook']) {
    this.#data.webhook = w;
    this.#save();
  }

  deals(owner: string): Deal[] {
    return this.#data.deals.filter((d) => d.owner === owner).reverse();
  }

  addDeal(
    owner: string,
    input: Pick<Deal, 'name' | 'company' | 'amount' | 'contactName' | 'contactEmail'>,
  ): Deal {
    const now = new Date().toISOString();
    const deal: Deal = { id: randomUUID(), owner, ...input, stage: 'open', createdAt: now, updatedAt: now };
    this.#data.deals.push(deal);
    this.#save();
    return deal;
  }

  /** Whether the owner already has a deal with this contact, apart from `except`. */
  knowsContact(owner: string, email: string, except: string): boolean {
    return this.#data.deals.some((d) => d.owner === owner && d.contactEmail === email && d.id !== except);
  }

  setStage(owner: string, id: string, stage: DealStage): Deal | undefined {
    const deal = this.#data.deals.find((d) => d.id === id && d.owner === owner);
    if (!deal) return undefined;
    deal.stage = stage;
    deal.updatedAt = new Date().toISOString();
    this.#save();
    return deal;
  }

  #save(): void {
    const tmp = `${this.#file}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.#data, null, 2), { mode: 0o600 });
    renameSync(tmp, this.#file);
  }
}
