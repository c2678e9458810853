import type { Connector, Workflow } from '@inlay/client';
import type { InlayContextValue } from '../context.ts';
import type { MessageKey } from './locales/en.ts';

/**
 * "When a new customer is created in Stripe" for a workflow that an app trigger starts, else null. The
 * catalog's triggers have a translated sentence each (the `_webhook` variant reads like its polling twin);
 * a custom connector's trigger reads with its own name from `GET /connectors`.
 */
export function triggerSentence(
  w: Pick<Workflow, 'trigger' | 'connectors'>,
  catalog: Connector[] | undefined,
  t: InlayContextValue['t'],
): string | null {
  const { type, connector, trigger } = w.trigger;
  if (type !== 'app' || !connector || !trigger) return null;
  const c = catalog?.find((x) => x.id === connector);
  const app = c?.name ?? w.connectors.find((x) => x.connector === connector)?.connectorName ?? connector;
  const key = `when.${trigger.replace(/_webhook$/, '')}` as MessageKey;
  const sentence = t(key, { app });
  if (sentence !== key) return sentence;
  return t('whenApp', { app, trigger: c?.triggers.find((x) => x.id === trigger)?.name ?? trigger });
}
