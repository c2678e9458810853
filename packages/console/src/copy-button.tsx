import { useState } from 'react';

/** Copies `value` to the clipboard and says so ("Copied") for a moment; `label` names what it copies. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [done, setDone] = useState<'copied' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setDone('copied');
    } catch {
      setDone('failed');
    }
    setTimeout(() => setDone(null), 2000);
  };
  return (
    <>
      <button type="button" className="secondary" onClick={copy}>
        Copy<span className="sr-only"> {label}</span>
      </button>
      <span role="status" className="muted">
        {done === 'copied'
          ? 'Copied.'
          : done === 'failed'
            ? 'Copying failed: select the text and copy it.'
            : ''}
      </span>
    </>
  );
}
