import { useContext } from 'react';
import { InlayContext, type InlayContextValue } from '../context.ts';

/** The provider's client, query client, translations and event emitter. Throws outside `<InlayProvider>`. */
export function useInlay(): InlayContextValue {
  const ctx = useContext(InlayContext);
  if (!ctx) throw new Error('Inlay components and hooks must be used inside <InlayProvider>');
  return ctx;
}
