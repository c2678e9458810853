import { type ReactNode, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useInlay } from '../hooks/useInlay.ts';
import { cx } from '../utils.ts';

const FOCUSABLE =
  'a[href],button:not([disabled]),input:not([disabled]),select:not([disabled]),textarea:not([disabled]),[tabindex]:not([tabindex="-1"])';

export const focusables = (el: HTMLElement) =>
  Array.from(el.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((e) => !e.closest('[inert]'));

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  labelledBy: string;
  describedBy?: string;
  role?: 'dialog' | 'alertdialog';
  className?: string;
  overlayClassName?: string;
  children: ReactNode;
}

/**
 * A modal dialog in a portal: focus moves in and is trapped (Tab and Shift+Tab cycle), Escape closes, a click
 * on the backdrop closes, focus returns to where it was. The portal root carries `.inlay` and the provider's
 * scheme and theme, so the dialog is styled like the surface that opened it.
 */
export function Dialog({
  open,
  onClose,
  labelledBy,
  describedBy,
  role = 'dialog',
  className,
  overlayClassName,
  children,
}: DialogProps) {
  const { colorScheme, style, locale } = useInlay();
  const ref = useRef<HTMLDivElement>(null);
  const overlay = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  // Portals need `document`: render nothing on the server and in the first client pass.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const shown = open && mounted;

  useEffect(() => {
    const el = ref.current;
    if (!shown || !el) return;
    const before = document.activeElement as HTMLElement | null;
    (el.querySelector<HTMLElement>('[data-autofocus]') ?? focusables(el)[0] ?? el).focus();
    const keepIn = (e: FocusEvent) => {
      const t = e.target as Node;
      // Another dialog stacked above this one (a confirmation) owns the focus.
      if (!el.contains(t) && !(t as Element).closest?.('.inlay-layer')) (focusables(el)[0] ?? el).focus();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        close.current();
      } else if (e.key === 'Tab') {
        const list = focusables(el);
        const first = list[0];
        const last = list[list.length - 1];
        if (!first || !last) return e.preventDefault();
        if (e.shiftKey && (document.activeElement === first || document.activeElement === el)) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && document.activeElement === last) {
          e.preventDefault();
          first.focus();
        }
      }
    };
    const onDown = (e: MouseEvent) => e.target === overlay.current && close.current();
    const ov = overlay.current;
    document.addEventListener('focusin', keepIn);
    el.addEventListener('keydown', onKey);
    ov?.addEventListener('mousedown', onDown);
    return () => {
      document.removeEventListener('focusin', keepIn);
      el.removeEventListener('keydown', onKey);
      ov?.removeEventListener('mousedown', onDown);
      if (before?.isConnected) before.focus();
    };
  }, [shown]);

  if (!shown) return null;
  const a11y = { role, 'aria-modal': true, 'aria-labelledby': labelledBy, 'aria-describedby': describedBy };
  return createPortal(
    <div className="inlay inlay-layer" data-scheme={colorScheme} lang={locale} style={style}>
      <div ref={overlay} className={cx('inlay-overlay', overlayClassName)} aria-hidden="true" />
      <div ref={ref} {...a11y} tabIndex={-1} className={cx('inlay-dialog', className)}>
        {children}
      </div>
    </div>,
    document.body,
  );
}
