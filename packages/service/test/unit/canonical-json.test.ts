import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalJsonParts } from '../../src/http/canonical-json.ts';

// What the logs route sends: always exactly what JSON.stringify makes of the parsed text.
const same = (text: string) => expect(canonicalJson(text)).toBe(JSON.stringify(JSON.parse(text)));

describe('canonicalJson', () => {
  it('drops the spaces PostgreSQL prints outside strings and keeps those inside', () => {
    const text = '[{"a": 1, "b": [true, false, null], "c": {"d": "x, y: \\"z\\", "}}, \n {"e": -2.5}]';
    expect(canonicalJson(text)).toBe(
      '[{"a":1,"b":[true,false,null],"c":{"d":"x, y: \\"z\\", "}},{"e":-2.5}]',
    );
    same(text);
  });

  it('ends a string at a quote after an even run of backslashes only', () => {
    for (const text of ['{"a": "\\\\", "b": 1}', '{"a": "\\\\\\"", "b": 1}', '["\\\\\\\\", 2]']) same(text);
  });

  it('hands back text that needs nothing unchanged', () => {
    const text = '{"a":[1,2,{"b":"c d"}]}';
    expect(canonicalJson(text)).toBe(text);
  });

  it.each([
    ['a number JavaScript prints otherwise', '{"n": 1000000000000000000000}'],
    ['a small number', '{"n": 0.0000001}'],
    ['a trailing zero', '{"n": 1.50}'],
    ['minus zero', '[-0]'],
    ['a number beyond a double', '[1e400]'],
    ['an index-like key among others', '{"b": 1, "10": 2, "a": 3}'],
  ])('falls back to the round trip for %s', (_, text) => same(text));

  it('keeps unicode and control-character escapes as JSON.stringify writes them', () => {
    same('{"s": "Déal ☃ 🚀 \\u0001\\u001f\\n\\t\\b\\f\\r"}');
  });

  it('rejects an unterminated string', () => {
    expect(() => canonicalJson('["abc')).toThrow(SyntaxError);
  });
});

describe('canonicalJsonParts', () => {
  const parts = (texts: string[]) => canonicalJsonParts(texts.join('\x1e'), '\x1e');
  it('makes each of the joined texts canonical in one scan', () => {
    expect(parts(['{"a": 1, "b": "x\\u001e y"}', '[ 2, {"c": [ ]} ]', '"s"'])).toEqual([
      '{"a":1,"b":"x\\u001e y"}',
      '[2,{"c":[]}]',
      '"s"',
    ]);
    expect(parts(['{"a":1}'])).toEqual(['{"a":1}']);
  });

  it('falls back to the round trip for the texts that need it only', () => {
    const texts = ['{"b": 1, "10": 2}', '{"n": 1.50}', '{"plain": [1, 2]}'];
    expect(parts(texts)).toEqual(texts.map((t) => JSON.stringify(JSON.parse(t))));
  });
});
