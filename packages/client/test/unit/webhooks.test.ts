import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../../src/index.server.ts';

const secret = `whsec_${Buffer.alloc(24, 9).toString('base64')}`;
const body = JSON.stringify({
  type: 'credential.needs_reconnect',
  timestamp: '2026-11-22T12:00:00.000Z',
  data: { credentialId: 'c1', userId: 'u1', connector: 'slack' },
});

function signed(now = new Date()) {
  return {
    'webhook-id': 'msg_1',
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign('msg_1', now, body),
  };
}

describe('verifyWebhook', () => {
  it('returns the payload of a delivery signed with the secret (Node headers, Fetch Headers, a Buffer body)', () => {
    const headers = signed();
    expect(verifyWebhook(secret, body, headers)).toEqual(JSON.parse(body));
    expect(verifyWebhook(secret, Buffer.from(body), new Headers(headers)).type).toBe(
      'credential.needs_reconnect',
    );
  });

  it('refuses a tampered body, a wrong secret, a missing signature and a stale timestamp', () => {
    const headers = signed();
    expect(() => verifyWebhook(secret, body.replace('slack', 'evil'), headers)).toThrow(
      WebhookVerificationError,
    );
    expect(() => verifyWebhook(`whsec_${Buffer.alloc(24, 1).toString('base64')}`, body, headers)).toThrow(
      WebhookVerificationError,
    );
    expect(() => verifyWebhook(secret, body, { ...headers, 'webhook-signature': undefined })).toThrow(
      WebhookVerificationError,
    );
    expect(() => verifyWebhook(secret, body, signed(new Date(Date.now() - 3_600_000)))).toThrow(
      WebhookVerificationError,
    );
  });
});
