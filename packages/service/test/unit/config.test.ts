import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

const key = randomBytes(32).toString('base64');

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({ INLAY_MASTER_KEY: key, INLAY_DATA_DIR: 'memory://' });
    expect(c).toMatchObject({
      port: 8080,
      publicUrl: 'http://localhost:8080',
      jwtTtlSeconds: 1800,
      logRetentionDays: 30,
      queue: 'memory',
      logLevel: 'info',
    });
    expect(c.masterKeys).toHaveLength(1);
  });

  it('reads INLAY_CONSOLE_DIR as an absolute folder, and has no console without it', () => {
    const base = { INLAY_MASTER_KEY: key, INLAY_DATA_DIR: 'memory://' };
    expect(loadConfig(base).consoleDir).toBeUndefined();
    expect(loadConfig({ ...base, INLAY_CONSOLE_DIR: 'console/dist' }).consoleDir).toBe(
      resolve('console/dist'),
    );
    expect(() => loadConfig({ ...base, INLAY_CONSOLE_DIR: '' })).toThrow(
      /INLAY_CONSOLE_DIR must name a folder/,
    );
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ INLAY_MASTER_KEY: 'abc' })).toThrow(/INLAY_MASTER_KEY must be 32 bytes/);
    expect(() => loadConfig({ INLAY_MASTER_KEY: key, PORT: 'eighty' })).toThrow(/PORT must be a number/);
    expect(() => loadConfig({ INLAY_MASTER_KEY: key, DATABASE_URL: 'mysql://x' })).toThrow(
      /DATABASE_URL must start with postgres/,
    );
    expect(() => loadConfig({ INLAY_MASTER_KEY: key, INLAY_BOOTSTRAP_API_KEY: 'short' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ NODE_ENV: 'production', INLAY_DATA_DIR: 'memory://' })).toThrow(
      /INLAY_MASTER_KEY is required/,
    );
  });

  it('accepts previous master keys for rotation', () => {
    const c = loadConfig({
      INLAY_MASTER_KEY: key,
      INLAY_MASTER_KEY_PREVIOUS: `${randomBytes(32).toString('base64')}, ${randomBytes(32).toString('base64')}`,
      INLAY_DATA_DIR: 'memory://',
    });
    expect(c.masterKeys).toHaveLength(3);
  });

  it('reads INLAY_TRUST_PROXY as true, a hop count or an address list', async () => {
    const trust = (v?: string) =>
      loadConfig({ INLAY_MASTER_KEY: key, INLAY_DATA_DIR: 'memory://', INLAY_TRUST_PROXY: v }).trustProxy;
    expect(trust(undefined)).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('true')).toBe(true);
    expect(trust('1')).toBe(1);
    expect(trust('loopback, 10.0.0.0/8')).toBe('loopback, 10.0.0.0/8');
    // The hop count reaches Express as a number: the client address is the one the nearest proxy saw.
    const app = express().set('trust proxy', trust('1'));
    app.get('/', (req, res) => {
      res.send(req.ip);
    });
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const ip = await fetch(`http://127.0.0.1:${port}/`, {
      headers: { 'x-forwarded-for': '203.0.113.7, 198.51.100.2' },
    }).then((r) => r.text());
    server.close();
    expect(ip).toBe('198.51.100.2');
  });

  it('parses INLAY_EGRESS_ALLOW, and names the entry that is wrong', () => {
    const base = { INLAY_MASTER_KEY: key, INLAY_DATA_DIR: 'memory://' };
    expect(loadConfig(base).egressAllow).toEqual([]);
    const c = loadConfig({ ...base, INLAY_EGRESS_ALLOW: 'hooks.internal:8443, 10.0.0.0/8,*.svc.local' });
    expect(c.egressAllow.map((e) => e.source)).toEqual(['hooks.internal:8443', '10.0.0.0/8', '*.svc.local']);
    expect(c.egressAllow[0]).toMatchObject({ kind: 'host', host: 'hooks.internal', port: 8443 });
    expect(() => loadConfig({ ...base, INLAY_EGRESS_ALLOW: 'ok.example,10.0.0.0/40' })).toThrow(
      'INLAY_EGRESS_ALLOW: "10.0.0.0/40" is not a valid CIDR',
    );
    expect(() => loadConfig({ ...base, INLAY_EGRESS_ALLOW: 'api.example:http' })).toThrow(ConfigError);
  });

  it('requires operator connector URLs to be absolute http(s) URLs', () => {
    const base = { INLAY_MASTER_KEY: key, INLAY_DATA_DIR: 'memory://' };
    expect(() => loadConfig({ ...base, INLAY_CONNECTOR_SLACK_BASE_URL: 'slack.internal/api' })).toThrow(
      'INLAY_CONNECTOR_SLACK_BASE_URL must be an absolute http(s) URL',
    );
    expect(() => loadConfig({ ...base, INLAY_CONNECTOR_SHOPIFY_TOKEN_URL: 'file:///etc/token' })).toThrow(
      'INLAY_CONNECTOR_SHOPIFY_TOKEN_URL must be an absolute http(s) URL',
    );
    expect(
      loadConfig({ ...base, INLAY_CONNECTOR_SLACK_BASE_URL: 'http://10.0.0.5:8080/api' }).env,
    ).toMatchObject({
      INLAY_CONNECTOR_SLACK_BASE_URL: 'http://10.0.0.5:8080/api',
    });
  });
});
