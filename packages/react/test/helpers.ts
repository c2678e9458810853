// Test helpers: the real service (in-process, PGlite or PostgreSQL), a fake provider, and a seeded account
// with workflows on three connectors (Slack over OAuth, Discord and Stripe over API keys).
import { randomUUID } from 'node:crypto';
import type { WorkflowDefinitionInput } from '@inlay/contract';
import { createUser, insertExecutions, installDirect, seedAccount, tokenFor } from '@inlay/test-kit/fixtures';
import { startProvider } from '@inlay/test-kit/provider';
import { type Service, startService } from '@inlay/test-kit/service';

export { createUser, insertExecutions, installDirect, type Service, startProvider, startService, tokenFor };

import { GOOD_TOKEN } from './constants.ts';

export { GOOD_TOKEN };

/**
 * A Discord stand-in: `/users/@me` accepts GOOD_TOKEN and `GOOD_TOKEN-<anything>` (and says why not), the guild
 * has two channels. `POST /__revoke {token}` makes it refuse a suffixed token, as a bot reset in Discord would.
 */
export async function startDiscord() {
  const revoked = new Set<string>();
  const valid = (auth = '') =>
    auth === `Bot ${GOOD_TOKEN}` || (auth.startsWith(`Bot ${GOOD_TOKEN}-`) && !revoked.has(auth.slice(4)));
  return startProvider({
    'POST /__revoke': (req) => {
      revoked.add(String(req.body.token));
      return { status: 204 };
    },
    'GET /users/@me': (req) =>
      valid(req.headers.authorization)
        ? {
            body: {
              id: '1',
              username: req.headers.authorization === `Bot ${GOOD_TOKEN}` ? 'bot' : 'acme-bot',
            },
          }
        : { status: 401, body: { message: '401: Unauthorized (invalid bot token)', code: 0 } },
    '*': (req) =>
      /^\/guilds\/\d+\/channels$/.test(req.path)
        ? {
            body: [
              { id: '111111111111111111', name: 'general', type: 0, position: 0 },
              { id: '222222222222222222', name: 'deals', type: 0, position: 1 },
            ],
          }
        : { status: 404, body: { message: 'no route' } },
  });
}

export const discordDefinition = (): WorkflowDefinitionInput => {
  const send = randomUUID();
  return {
    trigger: { type: 'event', event: 'deal.won' },
    steps: [
      {
        id: send,
        connector: 'discord',
        action: 'send_message',
        input: { channelId: '{{ config.channel }}', content: '{{ config.prefix }} {{ trigger.name }}' },
      },
    ],
    config: [
      {
        stepId: send,
        name: 'channel',
        displayName: 'Channel',
        type: 'select',
        required: true,
        options: { source: 'channels' },
      },
      { stepId: send, name: 'prefix', displayName: 'Message prefix', type: 'text', required: true },
      { stepId: send, name: 'mentions', displayName: 'Allow mentions', type: 'boolean' },
      { stepId: send, name: 'minAmount', displayName: 'Minimum amount', type: 'number' },
    ],
  };
};

const stripeDefinition = (): WorkflowDefinitionInput => ({
  trigger: { type: 'manual' },
  steps: [{ id: randomUUID(), connector: 'stripe', action: 'find_customers', input: { email: 'a@b.c' } }],
  config: [],
});

/** The service with Discord pointed at a local fake, an account, its user alice and three workflows. */
export async function seedWidget(svc: Service) {
  const s = await seedAccount(svc);
  const post = async (path: string, body: unknown) => {
    const r = await svc.call('POST', path, { auth: s.apiKey, body });
    if (r.status !== 201) throw new Error(r.text);
    return r.body;
  };
  const discordIntegration = (await post('/integrations', { name: 'Discord alerts', connector: 'discord' }))
    .integrationId as string;
  const discordWorkflowId = (
    await post('/workflows', {
      integrationId: discordIntegration,
      name: 'Announce won deals on Discord',
      description: 'Posts a message when a deal is won.',
      definition: discordDefinition(),
    })
  ).workflowId as string;
  const stripeIntegration = (await post('/integrations', { name: 'Billing', connector: 'stripe' }))
    .integrationId as string;
  const stripeWorkflowId = (
    await post('/workflows', {
      integrationId: stripeIntegration,
      name: 'Look up Stripe customers',
      definition: stripeDefinition(),
    })
  ).workflowId as string;
  // No connector at all (a transform step), with one config field of every type and static options.
  const step = randomUUID();
  const fieldsWorkflowId = (
    await post('/workflows', {
      integrationId: stripeIntegration,
      name: 'Every field type',
      definition: {
        trigger: { type: 'manual' },
        steps: [{ id: step, connector: 'transform', action: 'map', input: { expression: 'config' } }],
        config: [
          { stepId: step, name: 'title', displayName: 'Title', type: 'text', required: true },
          {
            stepId: step,
            name: 'body',
            displayName: 'Body',
            type: 'textarea',
            description: 'Markdown is fine',
          },
          { stepId: step, name: 'ratio', displayName: 'Ratio', type: 'number', default: 1 },
          { stepId: step, name: 'notify', displayName: 'Notify', type: 'boolean' },
          {
            stepId: step,
            name: 'level',
            displayName: 'Level',
            type: 'select',
            required: true,
            options: {
              values: [
                { value: 'low', label: 'Low' },
                { value: 'high', label: 'High' },
              ],
            },
          },
          {
            stepId: step,
            name: 'tags',
            displayName: 'Tags',
            type: 'multiselect',
            options: {
              values: [
                { value: 'a', label: 'Alpha' },
                { value: 'b', label: 'Beta' },
                { value: 'c', label: 'Gamma' },
              ],
            },
          },
        ],
      },
    })
  ).workflowId as string;
  return {
    ...s,
    fieldsWorkflowId,
    discordIntegration,
    discordWorkflowId,
    stripeWorkflowId,
  };
}
