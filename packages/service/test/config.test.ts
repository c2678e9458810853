import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

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
});
