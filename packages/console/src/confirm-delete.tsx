import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useId, useRef } from 'react';
import { ErrorText } from './ui.tsx';

export interface ConfirmDeleteProps {
  /** The button that opens the dialog (a visually hidden name keeps several on one page apart). */
  trigger: ReactNode;
  title: ReactNode;
  /** What deleting does; further inputs (such as typing a name) go here too. */
  children?: ReactNode;
  /** The confirming button's text, e.g. "Delete server". */
  confirm: string;
  /** Deletes; its error (such as the service refusing with 409) stays in the dialog, which stays open. */
  action(): Promise<unknown>;
  /** After a delete that worked: the dialog is closed by then. */
  onDone?(): void;
  /** False keeps the confirming button off (e.g. until the name is typed). */
  ready?: boolean;
}

/** A danger button and its modal `<dialog>` asking to confirm; Escape or Cancel closes it. */
export function ConfirmDelete({
  trigger,
  title,
  children,
  confirm,
  action,
  onDone,
  ready = true,
}: ConfirmDeleteProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const del = useMutation({
    mutationFn: action,
    onSuccess: () => {
      dialog.current?.close();
      onDone?.();
    },
  });
  return (
    <>
      <button
        type="button"
        className="danger"
        onClick={() => {
          del.reset();
          dialog.current?.showModal();
        }}
      >
        {trigger}
      </button>
      <dialog ref={dialog} aria-labelledby={titleId}>
        <h2 id={titleId}>{title}</h2>
        {children}
        {del.error ? <ErrorText error={del.error} /> : null}
        <div className="actions">
          <button
            type="button"
            className="danger"
            onClick={() => del.mutate()}
            disabled={!ready || del.isPending}
          >
            {confirm}
          </button>
          <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </dialog>
    </>
  );
}
