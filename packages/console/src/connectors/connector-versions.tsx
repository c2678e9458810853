import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useConsole } from '../session.tsx';
import { ErrorText, formatTime, Json } from '../ui.tsx';
import { pretty } from './connector-editor.tsx';

export interface ConnectorVersionsProps {
  id: string;
  name: string;
  /** The current version: every version from 1 to it can be read. */
  current: number;
  /** "Load into editor": the chosen version's text, to publish again (or change) as a new version. */
  onLoad(version: number, text: string): void;
}

/**
 * A custom connector's versions, 1 to the current one (versions are numbered without gaps), each read-only as
 * stored (`GET /connectors/{id}/definition?version=`), the one chosen loadable into the editor.
 */
export function ConnectorVersions({ id, name, current, onLoad }: ConnectorVersionsProps) {
  const { client } = useConsole();
  // The one before the current by default: the current one is in the editor already.
  const [version, setVersion] = useState(Math.max(1, current - 1));
  const def = useQuery({
    queryKey: ['connector-version', id, version],
    enabled: current > 1,
    // A published version never changes.
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: () => client.connectors.definition(id, { version }),
  });
  const d = def.data;
  return (
    <section aria-labelledby="connector-versions-title">
      <h2 id="connector-versions-title">Versions</h2>
      {current === 1 ? (
        <p className="muted">Version 1 is the only one: each saved version is listed here.</p>
      ) : (
        <div className="card stack">
          <div className="filters">
            <div className="field">
              <label htmlFor="connector-version">Version</label>
              <select
                id="connector-version"
                value={version}
                onChange={(e) => setVersion(Number(e.currentTarget.value))}
              >
                {Array.from({ length: current }, (_, i) => current - i).map((n) => (
                  <option key={n} value={n}>
                    Version {n}
                    {n === current ? ' (current)' : ''}
                  </option>
                ))}
              </select>
            </div>
          </div>
          {def.error ? <ErrorText error={def.error} /> : null}
          {d ? (
            <>
              <p className="muted">Published {formatTime(d.createdAt)}. Read-only.</p>
              <Json value={d.definition} label={`Version ${d.version} of ${name}`} />
              <div className="actions">
                <button
                  type="button"
                  className="secondary"
                  onClick={() => onLoad(d.version, pretty(d.definition))}
                >
                  Load version {d.version} into the editor
                </button>
              </div>
            </>
          ) : def.isPending ? (
            <p className="loading">Loading…</p>
          ) : null}
        </div>
      )}
    </section>
  );
}
