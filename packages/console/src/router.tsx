import { type AnchorHTMLAttributes, type MouseEvent, useEffect, useState } from 'react';

const BASE = '/console';

/** The console's route: the path below `/console`, e.g. `/executions/…`. */
export function usePath(): string {
  const [path, setPath] = useState(current);
  useEffect(() => {
    const on = () => setPath(current());
    window.addEventListener('popstate', on);
    return () => window.removeEventListener('popstate', on);
  }, []);
  return path;
}

function current() {
  const p = window.location.pathname.slice(BASE.length) || '/';
  return p + window.location.search;
}

export function navigate(to: string) {
  window.history.pushState(null, '', BASE + to);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

/** A link within the console: a real `<a href>` (open in a new tab works), routed in place on a plain click. */
export function Link({ to, ...rest }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={BASE + to} onClick={onClick} {...rest} />;
}
