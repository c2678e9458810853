import { isInlayError, type ServerClient } from '@inlay/client';
import type { WorkflowDefinitionInput } from '@inlay/contract';
import { SANDBOX_APPS, SANDBOX_CLIENT } from './sandbox.ts';

export const DEMO_USERS = [
  { username: 'alice', fullName: 'Alice Martin', password: 'demo' },
  { username: 'bob', fullName: 'Bob Okafor', password: 'demo' },
] as const;

// Fixed step ids keep the seeded definitions stable across restarts.
const STEP = {
  slackDeal: '6f0c1a52-3b7e-4d1a-9a51-0d9b1c2e3f01',
  hubspotContact: '6f0c1a52-3b7e-4d1a-9a51-0d9b1c2e3f02',
  githubIssue: '6f0c1a52-3b7e-4d1a-9a51-0d9b1c2e3f03',
  slackLead: '6f0c1a52-3b7e-4d1a-9a51-0d9b1c2e3f04',
  slackWon: '6f0c1a52-3b7e-4d1a-9a51-0d9b1c2e3f05',
  hubspotFollowUp: '6f0c1a52-3b7e-4d1a-9a51-0d9b1c2e3f06',
  deskTicket: '6f0c1a52-3b7e-4d1a-9a51-0d9b1c2e3f07',
};

/**
 * How often the demo's polling trigger asks the sandbox HubSpot for new contacts: seconds rather than the
 * usual minutes, so a contact added on the sandbox page starts a run while you watch (the demo lowers
 * `INLAY_POLL_MIN_INTERVAL_MS` to match).
 */
export const DEMO_POLL_EVERY = '5s';

const channelField = (stepId: string) => ({
  stepId,
  name: 'channel',
  displayName: 'Channel',
  description: 'Where to post',
  type: 'select' as const,
  required: true,
  options: { source: 'channels' },
});

interface SeedWorkflow {
  integration: 'Slack' | 'HubSpot' | 'GitHub' | 'Support desk';
  name: string;
  description: string;
  definition: WorkflowDefinitionInput;
}

export const DEMO_WORKFLOWS: SeedWorkflow[] = [
  {
    integration: 'Slack',
    name: 'Post new deals to Slack',
    description: 'Announces every deal you create in a Slack channel you choose.',
    definition: {
      trigger: { type: 'event', event: 'deal.created' },
      steps: [
        {
          id: STEP.slackDeal,
          name: 'Post to Slack',
          connector: 'slack',
          action: 'post_message',
          input: {
            channel: '{{ config.channel }}',
            text: 'New deal: {{ trigger.name }} with {{ trigger.company }} ({{ trigger.amount }} USD)',
          },
        },
      ],
      config: [channelField(STEP.slackDeal)],
    },
  },
  {
    integration: 'Slack',
    name: 'Celebrate won deals in Slack',
    description: 'Posts to a channel when a deal is won.',
    definition: {
      trigger: { type: 'event', event: 'deal.won' },
      steps: [
        {
          id: STEP.slackWon,
          connector: 'slack',
          action: 'post_message',
          input: {
            channel: '{{ config.channel }}',
            text: 'Won: {{ trigger.name }} ({{ trigger.amount }} USD)',
          },
        },
      ],
      config: [channelField(STEP.slackWon)],
    },
  },
  {
    integration: 'Slack',
    name: 'Post website leads to Slack',
    description: 'Your website form calls this workflow’s webhook URL; each lead is posted to a channel.',
    definition: {
      trigger: { type: 'webhook' },
      steps: [
        {
          id: STEP.slackLead,
          connector: 'slack',
          action: 'post_message',
          input: {
            channel: '{{ config.channel }}',
            text: 'New website lead: {{ trigger.name }} <{{ trigger.email }}>',
          },
        },
      ],
      config: [channelField(STEP.slackLead)],
    },
  },
  {
    integration: 'HubSpot',
    name: 'Sync new contacts to HubSpot',
    description: 'Creates a HubSpot contact for every new deal contact.',
    definition: {
      trigger: { type: 'event', event: 'contact.created' },
      steps: [
        {
          id: STEP.hubspotContact,
          connector: 'hubspot',
          action: 'create_contact',
          input: {
            email: '{{ trigger.email }}',
            firstname: '{{ trigger.firstname }}',
            lastname: '{{ trigger.lastname }}',
            company: '{{ trigger.company }}',
          },
        },
      ],
      config: [],
    },
  },
  {
    integration: 'HubSpot',
    name: 'Open a follow-up deal for new HubSpot contacts',
    description: 'Checks HubSpot for new contacts and opens a follow-up deal in HubSpot for each one.',
    definition: {
      trigger: {
        type: 'app',
        connector: 'hubspot',
        trigger: 'new_contact',
        input: {},
        every: DEMO_POLL_EVERY,
      },
      steps: [
        {
          id: STEP.hubspotFollowUp,
          connector: 'hubspot',
          action: 'create_deal',
          input: {
            dealname:
              'Follow up with {{ trigger.properties.firstname }} {{ trigger.properties.lastname }} ({{ trigger.properties.company }})',
          },
        },
      ],
      config: [],
    },
  },
  {
    integration: 'GitHub',
    name: 'Open a GitHub issue for lost deals',
    description: 'Files a post-mortem issue in a repository when a deal is lost.',
    definition: {
      trigger: { type: 'event', event: 'deal.lost' },
      steps: [
        {
          id: STEP.githubIssue,
          connector: 'github',
          action: 'create_issue',
          input: {
            repo: '{{ config.repo }}',
            title: 'Lost deal: {{ trigger.name }}',
            body: 'The deal with {{ trigger.company }} ({{ trigger.amount }} USD) was lost. Contact: {{ trigger.contactName }}.',
            labels: ['lost-deal'],
          },
        },
      ],
      config: [
        {
          stepId: STEP.githubIssue,
          name: 'repo',
          displayName: 'Repository',
          type: 'select',
          required: true,
          options: { source: 'repositories' },
        },
      ],
    },
  },
  {
    integration: 'Support desk',
    name: 'Open an onboarding ticket for won deals',
    description: 'Opens a ticket in the support desk (connected with an API key) for each deal won.',
    definition: {
      trigger: { type: 'event', event: 'deal.won' },
      steps: [
        {
          id: STEP.deskTicket,
          connector: 'freshdesk',
          action: 'create_ticket',
          input: {
            email: '{{ trigger.contactEmail }}',
            name: '{{ trigger.contactName }}',
            subject: 'Onboarding: {{ trigger.company }}',
            description:
              'The deal {{ trigger.name }} ({{ trigger.amount }} USD) was won. Welcome them aboard.',
          },
        },
      ],
      config: [],
    },
  },
];

const CONNECTOR: Record<SeedWorkflow['integration'], string> = {
  Slack: 'slack',
  HubSpot: 'hubspot',
  GitHub: 'github',
  'Support desk': 'freshdesk',
};

const ignoreConflict = (err: unknown) => {
  if (!(isInlayError(err) && err.status === 409)) throw err;
};

/**
 * Registers the sandbox OAuth apps (every start: cheap and idempotent), then on first start the users,
 * integrations and workflows of the demo account.
 */
export async function seed(client: ServerClient): Promise<{ seeded: boolean }> {
  for (const app of SANDBOX_APPS) await client.connectors.putOAuthApp(app, SANDBOX_CLIENT);
  for (const u of DEMO_USERS)
    await client.users.create({ username: u.username, fullName: u.fullName }).catch(ignoreConflict);
  const existing = await client.integrations.list();
  if (existing.length > 0) return { seeded: false };
  const integrationIds = new Map<string, string>();
  for (const w of DEMO_WORKFLOWS) {
    let integrationId = integrationIds.get(w.integration);
    if (!integrationId) {
      ({ integrationId } = await client.integrations.create({
        name: w.integration,
        connector: CONNECTOR[w.integration],
        description: `${w.integration} workflows for Acme CRM`,
      }));
      integrationIds.set(w.integration, integrationId);
    }
    await client.workflows.create({
      integrationId,
      name: w.name,
      description: w.description,
      definition: w.definition,
    });
  }
  return { seeded: true };
}
