import { describe, expect, it } from 'vitest';
import { TenantQueue } from '../src/expressions/tenant-queue.ts';

describe('TenantQueue', () => {
  it('serves tenants in turn, each first in first out', () => {
    const q = new TenantQueue<string>();
    for (const item of ['a1', 'a2', 'a3', 'a4']) q.push('a', item);
    q.push('b', 'b1');
    q.push('c', 'c1');
    q.push('b', 'b2');
    expect(q.size).toBe(7);
    expect(q.drain()).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
    expect(q.size).toBe(0);
    expect(q.next()).toBeUndefined();
  });

  it('makes a tenant that arrives later wait at most one turn of each tenant already waiting', () => {
    const q = new TenantQueue<string>();
    for (const item of ['a1', 'a2', 'a3']) q.push('a', item);
    expect(q.next()).toBe('a1');
    q.push('b', 'b1');
    expect(q.next()).toBe('a2');
    expect(q.next()).toBe('b1');
    expect(q.next()).toBe('a3');
  });

  it('removes a waiting item and forgets a tenant left with none', () => {
    const q = new TenantQueue<string>();
    q.push('a', 'a1');
    q.push('b', 'b1');
    expect(q.remove('b', 'b1')).toBe(true);
    expect(q.remove('b', 'b1')).toBe(false);
    expect(q.remove('c', 'x')).toBe(false);
    expect(q.size).toBe(1);
    q.push('b', 'b2');
    expect(q.drain()).toEqual(['a1', 'b2']);
  });
});
