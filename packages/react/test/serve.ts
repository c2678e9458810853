// Run by the global setup with `tsx --conditions=@inlay/source` (the service cannot load inside vitest's
// module runner or jsdom): starts the real service and a fake Discord, seeds them, prints the seed as one
// JSON line and keeps serving until stdin closes.
import {
  createUser,
  insertExecutions,
  installDirect,
  seedWidget,
  startDiscord,
  startService,
} from './helpers.ts';

const discord = await startDiscord();
const svc = await startService({ env: { INLAY_CONNECTOR_DISCORD_BASE_URL: discord.url } });
const s = await seedWidget(svc);
const users: Record<string, string> = {};
for (const name of ['market', 'install', 'logs', 'refresh', 'browser', 'keyboard', 'dark'])
  users[name] = await createUser(svc, s.apiKey, name);
await installDirect(svc.db, { ...s, userId: users.market! }, { active: false });
await installDirect(svc.db, { ...s, userId: users.logs! });
await installDirect(svc.db, { ...s, userId: users.browser! });
const executions = await insertExecutions(svc.db, { ...s, userId: users.logs! }, 12);
await insertExecutions(svc.db, { ...s, userId: users.browser! }, 3);

process.stdout.write(
  `${JSON.stringify({
    url: svc.url,
    providerUrl: discord.url,
    apiKey: s.apiKey,
    workflowId: s.workflowId,
    discordWorkflowId: s.discordWorkflowId,
    stripeWorkflowId: s.stripeWorkflowId,
    users,
    executions,
  })}\n`,
);
process.stdin.resume();
process.stdin.on('end', async () => {
  await svc.close();
  await discord.close();
  process.exit(0);
});
