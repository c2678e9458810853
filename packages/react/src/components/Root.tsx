import type { HTMLAttributes } from 'react';
import { useInlay } from '../hooks/useInlay.ts';
import { cx } from '../utils.ts';

/** The scoped root of every surface: `.inlay`, the color scheme and the theme's custom properties. */
export function Root({ className, style, ...rest }: HTMLAttributes<HTMLDivElement>) {
  const ctx = useInlay();
  return (
    <div
      {...rest}
      className={cx('inlay', className)}
      data-scheme={ctx.colorScheme}
      lang={ctx.locale}
      style={{ ...ctx.style, ...style }}
    />
  );
}
