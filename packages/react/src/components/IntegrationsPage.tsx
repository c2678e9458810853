import { type Connector, inlayKeys, inlayQueries, type Workflow } from '@inlay/client';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useConnectors } from '../hooks/useConnectors.ts';
import { useInlay } from '../hooks/useInlay.ts';
import { useOAuthSignIn } from '../hooks/useOAuthSignIn.ts';
import { useToggleWorkflow } from '../hooks/useToggleWorkflow.ts';
import { useUninstall } from '../hooks/useUninstall.ts';
import { useWorkflows } from '../hooks/useWorkflows.ts';
import type { MessageKey } from '../i18n/locales/en.ts';
import { triggerSentence } from '../i18n/triggerSentence.ts';
import { type ClassNames, cx, useControllableState } from '../utils.ts';
import { Dialog } from './Dialog.tsx';
import { ConnectorPicker, KeyForm, usePreload } from './deferred.tsx';
import { ExecutionLogs } from './ExecutionLogs.tsx';
import { InstallModal } from './InstallModal.tsx';
import { OAuthNotice } from './OAuthNotice.tsx';
import { Root } from './Root.tsx';
import { ErrorMessage, ErrorState, Icon, Skeleton } from './States.tsx';

export type IntegrationsPageSlot = 'toolbar' | 'group' | 'card' | 'badge' | 'actions' | 'empty';

export interface IntegrationsPageProps {
  className?: string;
  classNames?: ClassNames<IntegrationsPageSlot>;
  /** Search text (controlled); pair with `onSearchChange`. */
  search?: string;
  defaultSearch?: string;
  onSearchChange?: (search: string) => void;
  /** Category slug to show, `''` for all (controlled); pair with `onCategoryChange`. */
  category?: string;
  defaultCategory?: string;
  onCategoryChange?: (category: string) => void;
  /** Heading level of the integration groups (workflow names use the next level). Default 2. */
  headingLevel?: 2 | 3 | 4 | 5;
  /** Show the "Run history" toggle on installed workflows (default true). */
  showLogs?: boolean;
}

const matches = (w: Workflow, q: string) =>
  !q ||
  [w.name, w.description ?? '', w.integrationName, ...w.connectors.map((c) => c.connectorName)].some((s) =>
    s.toLowerCase().includes(q),
  );

/**
 * The marketplace: the account's workflows grouped by integration, with search, a category filter, and per
 * workflow install, configure, enable/disable and uninstall (with confirmation).
 */
export function IntegrationsPage(props: IntegrationsPageProps) {
  const { t, resume } = useInlay();
  const { classNames: cn = {}, headingLevel = 2, showLogs = true } = props;
  const workflows = useWorkflows();
  const connectors = useConnectors();
  usePreload(KeyForm, ConnectorPicker);
  const [search, setSearch] = useControllableState(
    props.search,
    props.defaultSearch ?? '',
    props.onSearchChange,
  );
  const [category, setCategory] = useControllableState(
    props.category,
    props.defaultCategory ?? '',
    props.onCategoryChange,
  );
  const [modal, setModal] = useState<string | null>(null);
  // The confirmation after an install or edit, shown (and announced politely) in that workflow's card.
  const [done, setDone] = useState<{ workflowId: string; text: string } | null>(null);
  useEffect(() => {
    if (modal) setDone(null);
  }, [modal]);
  const [confirm, setConfirm] = useState<Workflow | null>(null);
  const list = useRef<HTMLDivElement>(null);
  // After a dialog closes, the button that opened it may be gone (Install became Configure): the focus
  // then goes to the first action of that workflow's card instead of the page's body.
  const [refocusTo, refocus] = useState<string | null>(null);
  useEffect(() => {
    if (!refocusTo || modal || confirm) return;
    refocus(null);
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    list.current
      ?.querySelector<HTMLElement>(`[data-workflow="${refocusTo}"] .inlay-actions :is(button, input)`)
      ?.focus();
  }, [refocusTo, modal, confirm]);
  const [logsOf, setLogsOf] = useState<string | null>(null);
  const toggle = useToggleWorkflow();
  // A card whose workflow needs a credential reconnected offers it in place (OAuth), else opens Configure.
  const { client, queryClient } = useInlay();
  // Read only when a card needs a reconnect: the page makes no extra request otherwise.
  const needsReconnect = (workflows.data ?? []).some((w) => w.attention?.code === 'needs_reconnect');
  const creds = useQuery({ ...inlayQueries.credentials(client), enabled: needsReconnect }, queryClient);
  const signIn = useOAuthSignIn();
  const refreshWorkflows = () =>
    queryClient.invalidateQueries({ queryKey: inlayKeys.workflows(client.baseUrl) });
  // An API-key account's new secrets, entered in a dialog and sent with `PUT` (same credential id).
  const [keyFor, setKeyFor] = useState<{ credentialId: string; connector: Connector } | null>(null);
  const reconnect = (w: Workflow) => {
    const cred = creds.data?.find((c) => c.credentialId === w.attention?.credentialId);
    const def = connectors.data?.find((c) => c.id === cred?.connector);
    if (!cred || !def) return setModal(w.workflowId);
    if (def.authType !== 'oauth2') return setKeyFor({ credentialId: cred.credentialId, connector: def });
    // The card's notice says what to do meanwhile; a failure leaves the attention shown, with the button.
    signIn
      .start(cred.connector, { credentialId: cred.credentialId })
      .then(refreshWorkflows)
      .catch(() => {});
  };
  // The app the attention names: its own `connector`, else the credential's (a service without the field).
  const appOf = (w: Workflow) => {
    const cred = creds.data?.find((c) => c.credentialId === w.attention?.credentialId);
    const id = w.attention?.connector ?? cred?.connector;
    return (
      connectors.data?.find((c) => c.id === id)?.name ??
      w.connectors.find((c) => c.connector === id)?.connectorName ??
      ''
    );
  };
  const lacksAccount = (w: Workflow) =>
    w.attention?.code === 'needs_credential' || w.attention?.code === 'needs_reconnect';
  const uninstall = useUninstall();
  const id = useId();

  // Back from the OAuth redirect fallback: reopen the install flow it left.
  useEffect(() => {
    if (resume) setModal(resume.workflowId);
  }, [resume]);

  const categoryOf = useMemo(() => {
    const m = new Map<string, string>();
    for (const c of connectors.data ?? []) m.set(c.connectorId, c.category);
    return m;
  }, [connectors.data]);

  const categories = useMemo(() => {
    const set = new Set<string>();
    for (const w of workflows.data ?? [])
      for (const c of w.connectors) {
        const cat = categoryOf.get(c.connectorId);
        if (cat) set.add(cat);
      }
    return [...set].sort();
  }, [workflows.data, categoryOf]);

  const groups = useMemo(() => {
    const q = search.trim().toLowerCase();
    const out = new Map<string, Workflow[]>();
    for (const w of workflows.data ?? []) {
      if (!matches(w, q)) continue;
      if (category && !w.connectors.some((c) => categoryOf.get(c.connectorId) === category)) continue;
      const list = out.get(w.integrationName) ?? [];
      list.push(w);
      out.set(w.integrationName, list);
    }
    return [...out];
  }, [workflows.data, search, category, categoryOf]);

  const H = `h${headingLevel}` as 'h2';
  const H2 = `h${headingLevel + 1}` as 'h3';
  const catLabel = (c: string) => t(`category.${c}` as MessageKey) ?? c;

  let body: React.ReactNode;
  if (workflows.isPending) body = <Skeleton rows={4} />;
  // A failed background refetch (after a toggle, say) keeps the list: only a first load that failed
  // replaces it with the error.
  else if (workflows.isError && !workflows.data)
    body = <ErrorState error={workflows.error} onRetry={() => workflows.refetch()} />;
  else if (!groups.length)
    body = (
      <p className={cx('inlay-empty', cn.empty)} role="status">
        {workflows.data.length ? t('noMatches') : t('empty')}
      </p>
    );
  else
    body = groups.map(([name, list], gi) => (
      <section key={name} className={cx('inlay-group', cn.group)} aria-labelledby={`${id}-g${gi}`}>
        <H id={`${id}-g${gi}`} className="inlay-group-title">
          {name}
        </H>
        <ul className="inlay-cards">
          {list.map((w) => (
            <li key={w.workflowId} data-workflow={w.workflowId} className={cx('inlay-card', cn.card)}>
              <div className="inlay-card-head">
                <span className="inlay-icons">
                  {w.connectors.map((c) => (
                    <Icon key={c.connectorId} src={c.icon} />
                  ))}
                </span>
                <H2 className="inlay-card-title">{w.name}</H2>
                {w.installed && (
                  // One badge: "Active" or "Paused" already says it is installed; a workflow that cannot run
                  // for want of an account says what it needs instead, never "Active".
                  <span
                    className={cx(
                      'inlay-badge',
                      w.active && !lacksAccount(w) ? 'inlay-badge-active' : 'inlay-badge-paused',
                      cn.badge,
                    )}
                  >
                    {w.attention?.code === 'needs_credential'
                      ? t('chooseAccount', { app: appOf(w) })
                      : w.attention?.code === 'needs_reconnect'
                        ? t('needsReconnect')
                        : t(w.active ? 'active' : 'paused')}
                  </span>
                )}
              </div>
              {w.description && <p className="inlay-card-text">{w.description}</p>}
              <TriggerLine workflow={w} catalog={connectors.data} />
              {w.attention && (
                <div className="inlay-field-error" role="status">
                  {t(`attention.${w.attention.code}`, { app: appOf(w) })}{' '}
                  {w.attention.code === 'needs_credential' && (
                    <button
                      type="button"
                      className="inlay-button"
                      aria-label={`${t('chooseAccount', { app: appOf(w) })}: ${w.name}`}
                      onClick={() => setModal(w.workflowId)}
                    >
                      {t('chooseAccount', { app: appOf(w) })}
                    </button>
                  )}
                  {w.attention.code === 'needs_reconnect' && (
                    <button
                      type="button"
                      className="inlay-button"
                      disabled={signIn.pending !== null}
                      onClick={() => reconnect(w)}
                    >
                      {t('reconnectApp', { app: appOf(w) }).trim()}
                    </button>
                  )}
                  {w.attention.detail && (
                    <details className="inlay-error-details">
                      <summary>{t('technicalDetails')}</summary>
                      <code>{w.attention.detail}</code>
                    </details>
                  )}
                </div>
              )}
              {w.attention?.credentialId && (
                <OAuthNotice signIn={signIn} target={w.attention.credentialId} app={appOf(w)} />
              )}
              {w.connectors.length > 0 && (
                <p className="inlay-muted">
                  {t('apps', { apps: w.connectors.map((c) => c.connectorName).join(', ') })}
                </p>
              )}
              <div className={cx('inlay-actions', cn.actions)}>
                {w.installed ? (
                  <>
                    <label className="inlay-switch">
                      <input
                        type="checkbox"
                        role="switch"
                        aria-checked={w.active}
                        checked={w.active}
                        // A fixed name ("Enable: …"); the state is aria-checked, the visible text follows it.
                        aria-label={`${t('enable')}: ${w.name}`}
                        disabled={toggle.isPending && toggle.variables?.workflowId === w.workflowId}
                        onChange={(e) =>
                          toggle.mutate({ workflowId: w.workflowId, active: e.target.checked })
                        }
                      />
                      <span aria-hidden="true">{t(w.active ? 'enabled' : 'disabled')}</span>
                    </label>
                    <button
                      type="button"
                      className="inlay-button"
                      aria-label={`${t('configure')}: ${w.name}`}
                      onClick={() => setModal(w.workflowId)}
                    >
                      {t('configure')}
                    </button>
                    {showLogs && (
                      <button
                        type="button"
                        className="inlay-button"
                        aria-expanded={logsOf === w.workflowId}
                        aria-label={`${t(logsOf === w.workflowId ? 'hideRuns' : 'showRuns')}: ${w.name}`}
                        onClick={() => setLogsOf(logsOf === w.workflowId ? null : w.workflowId)}
                      >
                        {t(logsOf === w.workflowId ? 'hideRuns' : 'showRuns')}
                      </button>
                    )}
                    <button
                      type="button"
                      className="inlay-button inlay-button-danger"
                      aria-label={`${t('uninstall')}: ${w.name}`}
                      onClick={() => setConfirm(w)}
                    >
                      {t('uninstall')}
                    </button>
                  </>
                ) : (
                  <button
                    type="button"
                    className="inlay-button inlay-button-primary"
                    aria-label={`${t('install')}: ${w.name}`}
                    onClick={() => setModal(w.workflowId)}
                  >
                    {t('install')}
                  </button>
                )}
              </div>
              {/* Mounted (empty) while this workflow's dialog is open, so screen readers announce the text. */}
              {(modal === w.workflowId || done?.workflowId === w.workflowId) && (
                <p
                  className={done?.workflowId === w.workflowId ? 'inlay-notice' : 'inlay-sr-only'}
                  role="status"
                >
                  {done?.text}
                </p>
              )}
              {toggle.isError && toggle.variables?.workflowId === w.workflowId && (
                <ErrorMessage error={toggle.error} />
              )}
              {showLogs && logsOf === w.workflowId && w.installed && (
                // The toggle above already says "Run history".
                <ExecutionLogs workflowId={w.workflowId} title={null} />
              )}
            </li>
          ))}
        </ul>
      </section>
    ));

  return (
    <Root className={cx('inlay-page', props.className)}>
      <div className={cx('inlay-toolbar', cn.toolbar)}>
        <input
          type="search"
          className="inlay-input"
          aria-label={t('search')}
          placeholder={t('search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        {categories.length > 0 && (
          <select
            className="inlay-input"
            aria-label={t('category')}
            value={category}
            onChange={(e) => setCategory(e.target.value)}
          >
            <option value="">{t('allCategories')}</option>
            {categories.map((c) => (
              <option key={c} value={c}>
                {catLabel(c)}
              </option>
            ))}
          </select>
        )}
      </div>
      <div ref={list}>{body}</div>
      {modal && (
        <InstallModal
          workflowId={modal}
          open
          onInstalled={() => {
            const w = workflows.data?.find((x) => x.workflowId === modal);
            setDone({
              workflowId: modal,
              text: w?.installed ? t('savedDone') : t('installedDone', { name: w?.name ?? '' }),
            });
          }}
          onOpenChange={(o) => {
            if (o) return;
            setModal(null);
            refocus(modal);
          }}
        />
      )}
      <Dialog
        open={!!keyFor}
        onClose={() => setKeyFor(null)}
        labelledBy={`${id}-kt`}
        className="inlay-dialog-small"
      >
        {keyFor && (
          <>
            <h2 id={`${id}-kt`} className="inlay-dialog-title">
              {t('reconnectApp', { app: keyFor.connector.name })}
            </h2>
            <KeyForm
              connector={keyFor.connector}
              credentialId={keyFor.credentialId}
              onDone={() => {
                setKeyFor(null);
                refreshWorkflows();
              }}
            />
          </>
        )}
      </Dialog>
      <Dialog
        open={!!confirm}
        role="alertdialog"
        onClose={() => setConfirm(null)}
        labelledBy={`${id}-ct`}
        describedBy={`${id}-cd`}
        className="inlay-dialog-small"
      >
        {confirm && (
          <>
            <h2 id={`${id}-ct`} className="inlay-dialog-title">
              {t('uninstallTitle', { name: confirm.name })}
            </h2>
            <p id={`${id}-cd`}>{t('uninstallBody')}</p>
            {uninstall.isError && <ErrorMessage error={uninstall.error} />}
            <div className="inlay-dialog-footer">
              <button type="button" className="inlay-button" data-autofocus onClick={() => setConfirm(null)}>
                {t('cancel')}
              </button>
              <button
                type="button"
                className="inlay-button inlay-button-danger"
                disabled={uninstall.isPending}
                onClick={() =>
                  uninstall.mutate(
                    { installationId: confirm.installationId!, workflowId: confirm.workflowId },
                    {
                      onSuccess: () => {
                        setConfirm(null);
                        refocus(confirm.workflowId);
                      },
                    },
                  )
                }
              >
                {t('uninstall')}
              </button>
            </div>
          </>
        )}
      </Dialog>
    </Root>
  );
}

/** What starts the workflow, when it is an event in an app ("When a new customer is created in Stripe"). */
function TriggerLine({ workflow, catalog }: { workflow: Workflow; catalog: Connector[] | undefined }) {
  const { t } = useInlay();
  const text = triggerSentence(workflow, catalog, t);
  return text ? <p className="inlay-card-text inlay-trigger">{text}</p> : null;
}
