import { useQuery } from '@tanstack/react-query';
import { Link } from '../router.tsx';
import { useConsole } from '../session.tsx';
import { QueryState, Table } from '../table.tsx';
import { Integrations } from './integrations.tsx';

/** Every workflow of the account, with its current version and trigger; and the integrations they belong to. */
export function WorkflowsPage() {
  const { client } = useConsole();
  const list = useQuery({ queryKey: ['workflows'], queryFn: () => client.workflows.listAll() });
  return (
    <>
      <div className="row">
        <h1>Workflows</h1>
        <Link to="/workflows/new" className="button">
          New workflow
        </Link>
      </div>
      <QueryState query={list} empty="No workflows yet." />
      {list.data?.length ? (
        <Table
          caption="The account's workflows"
          columns={['Name', 'Integration', 'Version', 'Trigger', 'Connectors']}
        >
          {list.data.map((w) => (
            <tr key={w.workflowId}>
              <td>
                <Link to={`/workflows/${w.workflowId}`}>{w.name}</Link>
              </td>
              <td>{w.integrationName}</td>
              <td>{w.version}</td>
              <td>{w.trigger.event ?? w.trigger.type}</td>
              <td>{w.connectors.map((c) => c.connectorName).join(', ') || '—'}</td>
            </tr>
          ))}
        </Table>
      ) : null}
      <Integrations />
    </>
  );
}
