import { spawn } from 'node:child_process';
import { waitForOutput } from '@inlay/test-kit/cli';
import { describe, expect, it } from 'vitest';

/** A child that writes `pieces` to stdout 30 ms apart, then stays until killed. */
function writer(pieces: (string | number[])[]) {
  const script = `
    const pieces = ${JSON.stringify(pieces)};
    let i = 0;
    const next = () => {
      if (i === pieces.length) return setInterval(() => {}, 1000);
      const p = pieces[i++];
      process.stdout.write(typeof p === 'string' ? p : Buffer.from(p));
      setTimeout(next, 30);
    };
    next();`;
  return spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('waitForOutput (test helper)', () => {
  it('joins a line handed over in pieces, even inside a character', async () => {
    const ellipsis = [...Buffer.from('…')];
    const child = writer([
      'started\n{"msg":"exec',
      'ution crashed","query":"insert',
      ellipsis.slice(0, 1),
      [...ellipsis.slice(1), ...Buffer.from('"}\nafter\n')],
    ]);
    try {
      const line = await waitForOutput(child, (l) => l.includes('execution crashed'), 10_000);
      expect(line).toBe('{"msg":"execution crashed","query":"insert…"}');
    } finally {
      child.kill();
    }
  });

  it('times out quoting the last lines the child printed', async () => {
    const child = writer(['one\ntwo\n']);
    try {
      await expect(waitForOutput(child, (l) => l.includes('never'), 500)).rejects.toThrow(
        'timed out waiting for output; the last lines were:\none\ntwo',
      );
    } finally {
      child.kill();
    }
  });
});
