/** Fills `{name}` placeholders from `values`; an unknown name is left empty. */
export function fill(template: string, values: Record<string, string>, encode = false): string {
  return template.replace(/\{([A-Za-z0-9_]+)\}/g, (_, key: string) => {
    const v = (Object.hasOwn(values, key) ? values[key] : undefined) ?? '';
    return encode ? encodeURIComponent(v) : v;
  });
}

/** `INLAY_CONNECTOR_<ID>_<WHAT>`: the id upper-cased, `-` as `_`. */
export const envKey = (connectorId: string, what: 'BASE_URL' | 'AUTHORIZE_URL' | 'TOKEN_URL') =>
  `INLAY_CONNECTOR_${connectorId.toUpperCase().replace(/-/g, '_')}_${what}`;
