import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { forEachDiagnostic, linter, lintGutter } from '@codemirror/lint';
import { unifiedMergeView } from '@codemirror/merge';
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { jsonSchemaDiagnostics } from './schema-lint.ts';

// Colours from the console's variables, so light and dark both meet contrast (no syntax colours to check).
const theme = EditorView.theme({
  '&': { backgroundColor: 'var(--card)', color: 'var(--fg)', border: '1px solid var(--line)' },
  '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', caretColor: 'var(--fg)' },
  '.cm-gutters': {
    backgroundColor: 'var(--bg)',
    color: 'var(--muted)',
    borderRight: '1px solid var(--line)',
  },
  '&.cm-focused': { outline: '3px solid var(--focus)' },
  '.cm-scroller': { maxHeight: '32rem', overflow: 'auto' },
  '.cm-insertedLine, .cm-changedLine': { backgroundColor: 'rgba(26, 127, 55, 0.16)' },
  '.cm-deletedChunk': { backgroundColor: 'rgba(198, 40, 40, 0.16)' },
  '.cm-changedText, .cm-insertedText': { background: 'rgba(26, 127, 55, 0.3)', textDecoration: 'none' },
  '.cm-deletedText': { background: 'rgba(198, 40, 40, 0.3)' },
  '.cm-tooltip': { backgroundColor: 'var(--card)', color: 'var(--fg)' },
});

const schemaLint = (schema: object) => {
  const check = jsonSchemaDiagnostics(schema);
  return (view: EditorView) => check(view.state);
};

const base = (label: string): Extension[] => [
  lineNumbers(),
  EditorView.lineWrapping,
  json(),
  theme,
  // An explicit tabindex: axe counts the text as the scroller's focusable content only with one.
  EditorView.contentAttributes.of({ 'aria-label': label, tabindex: '0' }),
];

export interface JsonEditorProps {
  label: string;
  value: string;
  /** The JSON Schema the text is linted against (errors underlined, in the gutter and listed by `onErrors`). */
  schema?: object;
  onChange(text: string): void;
  /** The lint messages after each check, for a list outside the editor (screen readers, the publish button). */
  onErrors?(messages: string[]): void;
}

/** A CodeMirror 6 JSON editor with syntax and JSON Schema linting. Tab is left to the page (keyboard users). */
export default function JsonEditor({ label, value, schema, onChange, onErrors }: JsonEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const cb = useRef({ onChange, onErrors });
  cb.current = { onChange, onErrors };
  // biome-ignore lint/correctness/useExhaustiveDependencies: the editor owns its text after creation; a new value remounts it (key)
  useEffect(() => {
    const view = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          ...base(label),
          history(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          linter(jsonParseLinter(), { delay: 300 }),
          ...(schema ? [linter(schemaLint(schema), { delay: 300 })] : []),
          lintGutter(),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) cb.current.onChange(u.state.doc.toString());
            const messages: string[] = [];
            forEachDiagnostic(u.state, (d) => messages.push(d.message));
            cb.current.onErrors?.(messages);
          }),
        ],
      }),
    });
    return () => view.destroy();
  }, [schema, label]);
  return <div ref={host} className="editor" />;
}

/** Two versions as one read-only document: `after` with what `before` had marked as deleted. */
export function JsonDiff({ label, before, after }: { label: string; before: string; after: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const view = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: after,
        extensions: [
          ...base(label),
          EditorState.readOnly.of(true),
          unifiedMergeView({ original: before, mergeControls: false, gutter: true }),
        ],
      }),
    });
    return () => view.destroy();
  }, [label, before, after]);
  return <div ref={host} className="editor" />;
}
