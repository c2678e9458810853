const MAX = 63;

/** `listSites` → `list_sites`, `pets.get-all` → `pets_get-all`: a slug the declarative format accepts. */
export function slugId(text: string): string {
  const s = text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^[^a-z]+/, '')
    .replace(/[_-]+$/, '');
  return s.slice(0, MAX).replace(/[_-]+$/, '') || 'action';
}

/** An id for an operation without `operationId`: `GET /accounts/{id}/rewards` → `get_accounts_by_id_rewards`. */
export const synthesizedId = (method: string, path: string) =>
  slugId(`${method}_${path.replace(/\{([^}]+)\}/g, 'by_$1')}`);

/** Hands out unique ids: a repeat gets `_2`, `_3`, … (cut to fit the slug's length). */
export function uniqueIds() {
  const used = new Set<string>();
  return (id: string): string => {
    let out = id;
    for (let n = 2; used.has(out); n++) out = `${id.slice(0, MAX - String(n).length - 1)}_${n}`;
    used.add(out);
    return out;
  };
}
