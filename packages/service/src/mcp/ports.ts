import { type McpPorts, ToolFailure } from './session.ts';

const pending = (what: string) => async (): Promise<never> => {
  throw new ToolFailure(`${what} is not available on this server yet.`);
};

/** The acting tools' backends: the engine runs actions and workflows, the credential flows connect apps. */
export function createMcpPorts(): McpPorts {
  return {
    executeAction: pending('execute_action_inlay'),
    runWorkflow: pending('run_workflow_inlay'),
    createCredential: pending('create_credential_inlay'),
  };
}
