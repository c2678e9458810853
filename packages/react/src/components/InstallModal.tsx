import {
  type ConfigField,
  type Connector,
  type Installation,
  type InstallValue,
  isInlayError,
  waitForCredential,
} from '@inlay/client';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useConnectors } from '../hooks/useConnectors.ts';
import { useCredentials } from '../hooks/useCredentials.ts';
import { useInlay } from '../hooks/useInlay.ts';
import { useInstall } from '../hooks/useInstall.ts';
import { useInstallations } from '../hooks/useInstallations.ts';
import { useOptions } from '../hooks/useOptions.ts';
import { useWorkflow } from '../hooks/useWorkflow.ts';
import { type ClassNames, cx, useControllableState } from '../utils.ts';
import { Dialog } from './Dialog.tsx';
import { ConnectorPicker, usePreload } from './deferred.tsx';
import { Field, type FieldInput } from './Field.tsx';
import { ErrorMessage, ErrorState, Skeleton } from './States.tsx';

export type InstallModalSlot = 'overlay' | 'dialog' | 'header' | 'body' | 'footer' | 'field';

export interface InstallModalProps {
  workflowId: string;
  /** Controlled open state; pair with `onOpenChange`. */
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** Called with the installation after a successful install or edit. */
  onInstalled?: (installation: Installation) => void;
  className?: string;
  classNames?: ClassNames<InstallModalSlot>;
}

type Step = 'connect' | 'configure' | 'review';
type Values = Record<string, FieldInput>;

const isEmpty = (v: FieldInput) => v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

/** The value to send for a field, or undefined to leave it out. */
function toValue(f: ConfigField, v: FieldInput): InstallValue['fields'][number]['value'] | undefined {
  if (isEmpty(v)) return undefined;
  if (f.type === 'number') return Number(String(v).replace(',', '.'));
  return v as string | boolean | string[];
}

function fromValue(v: unknown): FieldInput {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'number') return String(v);
  return v as FieldInput;
}

/**
 * The install flow: connect each app, configure the fields, review and install. With an installed workflow
 * it edits that installation. Focus is trapped in the dialog, Escape closes it, and every step works with
 * the keyboard alone.
 */
export function InstallModal(props: InstallModalProps) {
  const { workflowId, classNames: cn = {} } = props;
  usePreload(ConnectorPicker);
  const { t, emit, resume, clearResume, client } = useInlay();
  const [open, setOpen] = useControllableState(props.open, props.defaultOpen ?? false, props.onOpenChange);
  const id = useId();
  const workflow = useWorkflow(open ? workflowId : undefined);
  const catalog = useConnectors();
  const installations = useInstallations();
  const install = useInstall();
  const w = workflow.data;
  const editing = w?.installationId ?? null;

  const needed = useMemo<Connector[]>(() => {
    const byUuid = new Map((catalog.data ?? []).map((c) => [c.connectorId, c]));
    return (w?.connectors ?? [])
      .map((c) => byUuid.get(c.connectorId))
      .filter((c): c is Connector => !!c && c.authType !== 'none');
  }, [w, catalog.data]);
  const steps = useMemo<Step[]>(
    () => [
      ...(needed.length ? (['connect'] as const) : []),
      ...(w?.config.length ? (['configure'] as const) : []),
      'review',
    ],
    [needed.length, w?.config.length],
  );

  const [step, setStep] = useState<Step | null>(null);
  const [creds, setCreds] = useState<Record<string, string | undefined>>({});
  const [values, setValues] = useState<Values>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  // A sentence ("Please correct the highlighted fields.") or the failed call.
  const [submitError, setSubmitError] = useState<unknown>(null);
  const [ready, setReady] = useState(false);
  // Connectors whose OAuth sign-in is under way: Next waits for them.
  const [signingIn, setSigningIn] = useState<Record<string, boolean>>({});
  const heading = useRef<HTMLHeadingElement>(null);
  const current = step && steps.includes(step) ? step : steps[0]!;
  const index = steps.indexOf(current);

  // Opened/closed events, and a fresh start each time the dialog opens.
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open === wasOpen.current) return;
    wasOpen.current = open;
    emit({ type: open ? 'opened' : 'closed', workflowId });
    if (open) {
      setStep(null);
      setErrors({});
      setSubmitError(null);
      setReady(false);
    }
  }, [open, workflowId, emit]);

  // Prefill: the installation being edited, or the progress kept across the OAuth redirect fallback.
  useEffect(() => {
    if (!open || ready || !w || (editing && !installations.data)) return;
    // Which step editing starts at depends on the apps that need an account: wait for the catalog.
    if (w.connectors.length && !catalog.data) return;
    const v: Values = {};
    const c: Record<string, string | undefined> = {};
    for (const f of w.config) if (f.default !== undefined) v[f.name] = fromValue(f.default);
    const inst = editing ? installations.data?.find((i) => i.installationId === editing) : undefined;
    if (inst) {
      // Editing starts where changes are made; the accounts stay one Back away, unless an app has no usable
      // account: then it starts there, with the saved values kept for the steps after.
      const lacksAccount =
        w.attention?.code === 'needs_credential' || w.attention?.code === 'needs_reconnect';
      if (lacksAccount && needed.length) setStep('connect');
      else if (w.config.length) setStep('configure');
      Object.assign(c, inst.credentialIds);
      for (const fd of inst.formData)
        if (fd.workflowId === w.workflowId) for (const f of fd.fields) v[f.name] = fromValue(f.value);
    }
    if (resume?.workflowId === w.workflowId) {
      Object.assign(c, resume.credentialIds);
      Object.assign(v, resume.values as Values);
      const back = resume;
      clearResume();
      waitForCredential(client, back.credentialId).then((cred) => {
        if (cred.status === 'connected') setCreds((p) => ({ ...p, [back.connector]: cred.credentialId }));
        else
          setErrors((p) => ({
            ...p,
            [`cred:${back.connector}`]: t('oauthFailed', {
              app: needed.find((n) => n.id === back.connector)?.name ?? back.connector,
            }),
          }));
      }, setSubmitError);
    }
    setCreds(c);
    setValues(v);
    setReady(true);
  }, [open, ready, w, editing, installations.data, resume, clearResume, client, t, needed, catalog.data]);

  const go = (s: Step, error: unknown = null) => {
    setStep(s);
    setSubmitError(error);
    requestAnimationFrame(() => heading.current?.focus());
  };

  const sourceConnector = (f: ConfigField) => {
    const source = f.options && 'source' in f.options ? f.options.source : undefined;
    if (!source) return undefined;
    return (
      needed.find((c) => c.sources.includes(source) && creds[c.id]) ??
      needed.find((c) => c.sources.includes(source))
    );
  };

  const validate = (s: Step): Record<string, string> => {
    const e: Record<string, string> = {};
    if (s === 'connect')
      for (const c of needed) if (!creds[c.id]) e[`cred:${c.id}`] = t('needConnection', { app: c.name });
    if (s === 'configure')
      for (const f of w?.config ?? []) {
        const v = values[f.name];
        if (f.required && isEmpty(v)) e[f.name] = t('fieldRequired', { field: f.displayName });
        else if (f.type === 'number' && !isEmpty(v) && !Number.isFinite(Number(String(v).replace(',', '.'))))
          e[f.name] = t('notANumber', { field: f.displayName });
      }
    return e;
  };

  // The first highlighted field takes the focus, so its message is read out and it can be fixed at once.
  const focusInvalid = () =>
    requestAnimationFrame(() =>
      document.querySelector<HTMLElement>('.inlay-dialog [aria-invalid=true], .inlay-invalid input')?.focus(),
    );
  const next = () => {
    const e = validate(current);
    setErrors(e);
    if (Object.keys(e).length) {
      setSubmitError(t('fixErrors'));
      focusInvalid();
      return;
    }
    go(steps[index + 1]!);
  };

  const body = (): InstallValue[] => {
    const blocks = new Map<string, InstallValue>();
    for (const f of w?.config ?? []) {
      const v = toValue(f, values[f.name]);
      if (v === undefined) continue;
      const b = blocks.get(f.stepId) ?? { workflowId, blockId: f.stepId, fields: [] };
      b.fields.push({ name: f.name, value: v });
      blocks.set(f.stepId, b);
    }
    return [...blocks.values()];
  };

  const submit = () => {
    const sent = body();
    const credentialIds = Object.fromEntries(
      Object.entries(creds).filter((e): e is [string, string] => !!e[1]),
    );
    setSubmitError(null);
    install.mutate(
      { workflowId, installationId: editing, credentialIds, values: sent },
      {
        onSuccess: (inst) => {
          props.onInstalled?.(inst);
          setOpen(false);
        },
        onError: (err) => {
          // Put each error the service names next to its field, and go back to the first step that has one.
          const e: Record<string, string> = {};
          if (isInlayError(err))
            for (const fe of err.errors) {
              const m = /^body\.values\[(\d+)\]\.fields\[(\d+)\]/.exec(fe.field);
              const c = /^body\.credentialIds\.(.+)$/.exec(fe.field);
              const name = m ? sent[Number(m[1])]?.fields[Number(m[2])]?.name : undefined;
              if (name) e[name] = fe.message;
              else if (c) e[`cred:${c[1]}`] = fe.message;
            }
          setErrors(e);
          setSubmitError(err);
          const back = Object.keys(e).some((k) => k.startsWith('cred:'))
            ? 'connect'
            : Object.keys(e).length
              ? 'configure'
              : null;
          if (back && steps.includes(back)) go(back, err);
        },
      },
    );
  };

  const close = () => setOpen(false);
  const stepName = { connect: t('stepConnect'), configure: t('stepConfigure'), review: t('stepReview') };
  const loading = workflow.isPending || catalog.isPending || (editing && installations.isPending) || !ready;
  const failed = workflow.error ?? catalog.error;

  return (
    <Dialog
      open={open}
      onClose={close}
      labelledBy={`${id}-t`}
      className={cx('inlay-install', props.className, cn.dialog)}
      overlayClassName={cn.overlay}
    >
      <div className={cx('inlay-dialog-header', cn.header)}>
        <h2 id={`${id}-t`} className="inlay-dialog-title">
          {w
            ? t(editing ? 'editTitle' : 'installTitle', { name: w.name })
            : t(failed ? 'errorTitle' : 'loading')}
        </h2>
        <button
          type="button"
          className="inlay-button inlay-button-ghost inlay-close"
          aria-label={t('close')}
          onClick={close}
        >
          <span aria-hidden="true">×</span>
        </button>
      </div>
      {failed ? (
        <ErrorState
          error={failed}
          onRetry={() => (workflow.error ? workflow.refetch() : catalog.refetch())}
        />
      ) : loading || !w ? (
        <Skeleton rows={3} />
      ) : (
        <>
          <ol className="inlay-steps" aria-label={t('stepOf', { n: index + 1, total: steps.length })}>
            {steps.map((s, i) => (
              <li
                key={s}
                aria-current={s === current ? 'step' : undefined}
                className={cx(i < index && 'inlay-done')}
              >
                {stepName[s]}
              </li>
            ))}
          </ol>
          <div className={cx('inlay-dialog-body', cn.body)}>
            <h3 ref={heading} tabIndex={-1} className="inlay-step-title">
              <span className="inlay-muted">{t('stepOf', { n: index + 1, total: steps.length })}</span>{' '}
              {stepName[current]}
            </h3>
            {current === 'connect' && (
              <>
                <p className="inlay-muted">{t('connectHelp')}</p>
                {needed.map((c) => (
                  <ConnectorPicker
                    key={c.id}
                    connector={c}
                    value={creds[c.id]}
                    error={errors[`cred:${c.id}`]}
                    onChange={(v) => {
                      setCreds((p) => ({ ...p, [c.id]: v }));
                      setErrors(({ [`cred:${c.id}`]: _, ...rest }) => rest);
                      setSubmitError(null);
                    }}
                    resumeState={() => ({ workflowId, credentialIds: creds, values })}
                    onBusy={(b) => setSigningIn((p) => (p[c.id] === b ? p : { ...p, [c.id]: b }))}
                  />
                ))}
              </>
            )}
            {current === 'configure' &&
              w.config.map((f) => {
                const c = sourceConnector(f);
                return (
                  <Field
                    key={f.name}
                    field={f}
                    className={cn.field}
                    value={values[f.name]}
                    error={errors[f.name]}
                    connector={c?.id}
                    credentialId={c ? creds[c.id] : undefined}
                    onChange={(v) => setValues((p) => ({ ...p, [f.name]: v }))}
                  />
                );
              })}
            {current === 'review' && (
              <>
                {needed.length > 0 && (
                  <>
                    <h4 className="inlay-label">{t('reviewAccounts')}</h4>
                    <dl className="inlay-review">
                      {needed.map((c) => (
                        <div key={c.id}>
                          <dt>{c.name}</dt>
                          <dd>
                            <CredentialName connector={c} credentialId={creds[c.id]} />
                          </dd>
                        </div>
                      ))}
                    </dl>
                  </>
                )}
                {w.config.length > 0 && (
                  <>
                    <h4 className="inlay-label">{t('reviewSettings')}</h4>
                    <dl className="inlay-review">
                      {w.config.map((f) => (
                        <div key={f.name}>
                          <dt>{f.displayName}</dt>
                          <dd>
                            <ReviewValue
                              field={f}
                              value={values[f.name]}
                              connector={sourceConnector(f)?.id}
                              credentialId={creds[sourceConnector(f)?.id ?? '']}
                            />
                          </dd>
                        </div>
                      ))}
                    </dl>
                  </>
                )}
                {!needed.length && !w.config.length && <p>{t('noFields')}</p>}
              </>
            )}
            {submitError != null && <ErrorMessage error={submitError} />}
          </div>
          <div className={cx('inlay-dialog-footer', cn.footer)}>
            {index > 0 && (
              <button type="button" className="inlay-button" onClick={() => go(steps[index - 1]!)}>
                {t('back')}
              </button>
            )}
            <button type="button" className="inlay-button" onClick={close}>
              {t('cancel')}
            </button>
            {current === 'review' ? (
              <button
                type="button"
                className="inlay-button inlay-button-primary"
                disabled={install.isPending}
                onClick={submit}
              >
                {install.isPending ? t('saving') : t(editing ? 'saveChanges' : 'installAction')}
              </button>
            ) : (
              <button
                type="button"
                className="inlay-button inlay-button-primary"
                disabled={current === 'connect' && Object.values(signingIn).some(Boolean)}
                onClick={next}
              >
                {t('next')}
              </button>
            )}
          </div>
        </>
      )}
    </Dialog>
  );
}

/** The chosen account as the user knows it: the provider's label for it ("Acme (sandbox)"), after its own name when that says more than the app's. */
function CredentialName({
  connector,
  credentialId,
}: {
  connector: { id: string; name: string };
  credentialId?: string;
}) {
  const { t } = useInlay();
  const list = useCredentials(connector.id);
  const c = list.data?.find((c) => c.credentialId === credentialId);
  const label =
    c && ([c.name !== connector.name && c.name, c.accountLabel].filter(Boolean).join(' · ') || c.name);
  return <>{credentialId ? (label ?? t('loading')) : t('notSet')}</>;
}

/** A setting as the user chose it: the option's label (`#sales`, static or listed by the provider), not its value. */
function ReviewValue({
  field: f,
  value: v,
  connector,
  credentialId,
}: {
  field: ConfigField;
  value: FieldInput;
  connector?: string;
  credentialId?: string;
}) {
  const { t } = useInlay();
  const source = f.options && 'source' in f.options ? f.options.source : undefined;
  // The same query the configure step ran, so this is normally answered from the cache.
  const dynamic = useOptions(source && connector, source, credentialId);
  if (isEmpty(v)) return <>{t('notSet')}</>;
  if (f.type === 'boolean') return <>{t(v ? 'yes' : 'no')}</>;
  const opts = f.options && 'values' in f.options ? f.options.values : dynamic.data;
  const label = (x: string) => opts?.find((o) => o.value === x)?.label ?? x;
  return <>{Array.isArray(v) ? v.map(label).join(', ') : label(String(v))}</>;
}
