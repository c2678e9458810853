import { InstallModal, useWorkflows } from '@inlay/react';
import { type FormEvent, useEffect, useState } from 'react';
import { api, type Deal, type RunSummary } from '../api.ts';

const money = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});

export function Deals() {
  const [deals, setDeals] = useState<Deal[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [lastRuns, setLastRuns] = useState<RunSummary[] | null>(null);

  useEffect(() => {
    api<{ data: Deal[] }>('GET', '/deals').then(
      (r) => setDeals(r.data),
      (e: Error) => setError(e.message),
    );
  }, []);

  async function create(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const formEl = e.currentTarget;
    const f = new FormData(formEl);
    setError(null);
    try {
      const r = await api<{ data: Deal; runs: RunSummary[] }>('POST', '/deals', {
        name: f.get('name'),
        company: f.get('company'),
        amount: Number(f.get('amount')),
        contactName: f.get('contactName'),
        contactEmail: f.get('contactEmail'),
      });
      setDeals((d) => [r.data, ...(d ?? [])]);
      setLastRuns(r.runs);
      formEl.reset();
    } catch (err) {
      setError((err as Error).message);
    }
  }

  async function close(deal: Deal, outcome: 'won' | 'lost') {
    try {
      const r = await api<{ data: Deal; runs: RunSummary[] }>('POST', `/deals/${deal.id}/${outcome}`);
      setDeals((ds) => (ds ?? []).map((d) => (d.id === deal.id ? r.data : d)));
      setLastRuns(r.runs);
    } catch (err) {
      setError((err as Error).message);
    }
  }

  return (
    <div className="stack">
      <h1>Deals</h1>
      <QuickSetup />
      <form className="card deal-form" onSubmit={create} aria-label="New deal">
        <h2>New deal</h2>
        <label>
          Deal name
          <input name="name" required placeholder="Annual plan" />
        </label>
        <label>
          Company
          <input name="company" required placeholder="Globex" />
        </label>
        <label>
          Amount (USD)
          <input name="amount" type="number" min="0" step="1" required defaultValue="12000" />
        </label>
        <label>
          Contact name
          <input name="contactName" placeholder="Hank Scorpio" />
        </label>
        <label>
          Contact email
          <input name="contactEmail" type="email" placeholder="hank@globex.test" />
        </label>
        <button type="submit" className="primary">
          Create deal
        </button>
      </form>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {lastRuns && (
        <p role="status" className="muted" data-testid="last-runs">
          {lastRuns
            .map((r) =>
              r.error
                ? `${r.event}: not sent (${r.error})`
                : `${r.event}: ${r.executionIds.length} workflow run${r.executionIds.length === 1 ? '' : 's'} started`,
            )
            .join(' · ')}
        </p>
      )}
      <table className="deals">
        <caption className="sr-only">Your deals</caption>
        <thead>
          <tr>
            <th scope="col">Deal</th>
            <th scope="col">Company</th>
            <th scope="col">Amount</th>
            <th scope="col">Stage</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {deals?.length === 0 && (
            <tr>
              <td colSpan={5} className="muted">
                No deals yet.
              </td>
            </tr>
          )}
          {deals?.map((d) => (
            <tr key={d.id}>
              <td data-label="Deal">{d.name}</td>
              <td data-label="Company">{d.company}</td>
              <td data-label="Amount">{money.format(d.amount)}</td>
              <td data-label="Stage">
                <span className={`stage stage-${d.stage}`}>{d.stage}</span>
              </td>
              <td className="row-actions">
                {d.stage === 'open' && (
                  <>
                    <button type="button" onClick={() => close(d, 'won')} aria-label={`Mark ${d.name} won`}>
                      Won
                    </button>
                    <button type="button" onClick={() => close(d, 'lost')} aria-label={`Mark ${d.name} lost`}>
                      Lost
                    </button>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The host's own call to action, opening Inlay's install flow directly with `<InstallModal>`. */
function QuickSetup() {
  const workflows = useWorkflows();
  const [open, setOpen] = useState(false);
  const slack = workflows.data?.find((w) => w.name === 'Post new deals to Slack');
  if (!slack || slack.installed) return null;
  return (
    <div className="card callout">
      <span>Tell your team about new deals: post them to a Slack channel.</span>
      <button type="button" className="primary" onClick={() => setOpen(true)}>
        Set up Slack
      </button>
      <InstallModal workflowId={slack.workflowId} open={open} onOpenChange={setOpen} />
    </div>
  );
}
