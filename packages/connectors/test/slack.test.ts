import { DeclarativeConnector } from '@inlay/contract';
import { readJsonFixture } from '@inlay/test-kit/fixture-files';
import { startProvider } from '@inlay/test-kit/provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectorError, ConnectorRuntime, catalog, compileDeclarative } from '../src/index.ts';

// The same tests run against the TypeScript definition and its declarative JSON form.
const declarative = compileDeclarative(DeclarativeConnector.parse(readJsonFixture('slack.json')));

const token = 'xoxb-test-token-123456';
const credential = { fields: {}, oauth: { accessToken: token } };
let provider: Awaited<ReturnType<typeof startProvider>>;
let runtimes: Record<string, ConnectorRuntime>;

beforeAll(async () => {
  provider = await startProvider({
    'POST /chat.postMessage': (r) =>
      r.body.channel === 'C404'
        ? { body: { ok: false, error: 'channel_not_found' } }
        : {
            body: {
              ok: true,
              channel: r.body.channel,
              ts: '1700000000.000100',
              message: { text: r.body.text },
            },
          },
    'GET /conversations.history': (r) => ({
      body: { ok: true, messages: [{ ts: '1', text: `hello ${r.query.get('channel')}` }] },
    }),
    'GET /conversations.list': (r) =>
      r.query.get('cursor')
        ? {
            body: {
              ok: true,
              channels: [{ id: 'C2', name: 'sales' }],
              response_metadata: { next_cursor: '' },
            },
          }
        : {
            body: {
              ok: true,
              channels: [{ id: 'C1', name: 'general' }],
              response_metadata: { next_cursor: 'page2' },
            },
          },
    'POST /auth.test': (r) =>
      r.headers.authorization === `Bearer ${token}`
        ? { body: { ok: true } }
        : { body: { ok: false, error: 'invalid_auth' } },
  });
  const env = { INLAY_CONNECTOR_SLACK_BASE_URL: provider.url };
  runtimes = {
    typescript: new ConnectorRuntime({ connectors: catalog, env }),
    json: new ConnectorRuntime({ connectors: [declarative], env }),
  };
});
afterAll(() => provider.close());

describe.each(['typescript', 'json'])('slack (%s form)', (form) => {
  const runtime = {
    execute: (...a: Parameters<ConnectorRuntime['execute']>) => runtimes[form]!.execute(...a),
    options: (...a: Parameters<ConnectorRuntime['options']>) => runtimes[form]!.options(...a),
    test: (...a: Parameters<ConnectorRuntime['test']>) => runtimes[form]!.test(...a),
  };
  it('post_message sends chat.postMessage with the bearer token and returns the provider body', async () => {
    const res = await runtime.execute(
      'slack',
      'post_message',
      { channel: 'C1', text: 'New deal' },
      { credential },
    );
    const req = provider.requests.at(-1)!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/chat.postMessage');
    expect(req.headers.authorization).toBe(`Bearer ${token}`);
    expect(req.body).toEqual({ channel: 'C1', text: 'New deal' });
    expect(res.statusCode).toBe(200);
    expect(res.output).toMatchObject({ ok: true, channel: 'C1', ts: '1700000000.000100' });
  });

  it('list_messages reads conversations.history and returns the messages', async () => {
    const res = await runtime.execute('slack', 'list_messages', { channel: 'C1' }, { credential });
    const req = provider.requests.at(-1)!;
    expect(req.method).toBe('GET');
    expect(req.query.get('channel')).toBe('C1');
    expect(req.query.get('limit')).toBe('20');
    expect(res.output).toEqual([{ ts: '1', text: 'hello C1' }]);
  });

  it('turns ok:false into a non-transient error carrying Slack’s reason', async () => {
    const err = await runtime
      .execute('slack', 'post_message', { channel: 'C404', text: 'x' }, { credential })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ConnectorError);
    expect(err.message).toContain('channel_not_found');
    expect(err.transient).toBe(false);
  });

  it('follows cursor pages for the channels option source', async () => {
    const options = await runtime.options('slack', 'channels', { credential });
    expect(options).toEqual([
      { value: 'C1', label: '#general' },
      { value: 'C2', label: '#sales' },
    ]);
    expect(provider.requests.at(-1)!.query.get('cursor')).toBe('page2');
  });

  it('rejects invalid input before any request is sent', async () => {
    const before = provider.requests.length;
    const err = await runtime
      .execute('slack', 'post_message', { channel: '' }, { credential })
      .catch((e) => e);
    expect(err.code).toBe('invalid_input');
    expect(provider.requests.length).toBe(before);
  });

  it('tests a credential against auth.test', async () => {
    expect(await runtime.test('slack', credential)).toEqual({ ok: true });
    const bad = await runtime.test('slack', { fields: {}, oauth: { accessToken: 'wrong-token' } });
    expect(bad).toMatchObject({ ok: false, reason: expect.stringContaining('invalid_auth') });
  });
});
