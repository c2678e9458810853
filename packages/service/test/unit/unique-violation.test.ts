import { describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../src/store/unique-violation.ts';

describe('isUniqueViolation', () => {
  it('finds SQLSTATE 23505 on the error or in its causes, as drivers and drizzle wrap it', () => {
    const pg = Object.assign(new Error('duplicate key'), { code: '23505' });
    expect(isUniqueViolation(pg)).toBe(true);
    expect(isUniqueViolation(new Error('Failed query', { cause: pg }))).toBe(true);
    expect(isUniqueViolation(new Error('a', { cause: new Error('b', { cause: pg }) }))).toBe(true);
  });

  it('is false for other codes, non-errors and a cause chain deeper than five', () => {
    expect(isUniqueViolation(Object.assign(new Error('x'), { code: '23503' }))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
    expect(isUniqueViolation('23505')).toBe(false);
    let deep: unknown = { code: '23505' };
    for (let i = 0; i < 5; i++) deep = { cause: deep };
    expect(isUniqueViolation(deep)).toBe(false);
  });
});
