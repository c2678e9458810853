import { createRequire } from 'node:module';

/** The part of DOMPurify used here. */
interface Purifier {
  sanitize(dirty: string, config: Record<string, unknown>): string;
  addHook(
    hook: 'uponSanitizeAttribute',
    fn: (node: unknown, data: { attrName: string; attrValue: string; keepAttr: boolean }) => void,
  ): void;
}

// Loaded untyped: their types pull in the DOM library, which packages that compile this service without it
// (@inlay/express's tests) must not get.
const require = createRequire(import.meta.url);
const load = () => {
  const { JSDOM } = require('jsdom') as { JSDOM: new (html: string) => { window: unknown } };
  const createDOMPurify = require('dompurify') as (window: unknown) => Purifier;
  return createDOMPurify(new JSDOM('').window);
};

let purify: Purifier | undefined;

const SVG_NS = 'http://www.w3.org/2000/svg';
/** A reference to anything but a fragment of the image itself (`url(#grad)` stays, `url(https://…)` goes). */
const OUTSIDE_URL = /url\(\s*['"]?\s*(?!#)/i;

/**
 * DOMPurify over a jsdom window (created once): its SVG profile already drops scripts, event handlers and
 * `javascript:` URLs; the hook below also drops every reference outside the image (`<use href="https://…">`,
 * `xlink:href`, `url(…)` in attributes), so a served icon fetches nothing and runs nothing.
 */
function sanitizer(): Purifier {
  if (purify) return purify;
  const p = load();
  p.addHook('uponSanitizeAttribute', (_node, data) => {
    const name = data.attrName.toLowerCase();
    const value = data.attrValue.trim();
    if ((name === 'href' || name === 'xlink:href') && !value.startsWith('#')) data.keepAttr = false;
    else if (OUTSIDE_URL.test(value)) data.keepAttr = false;
  });
  purify = p;
  return p;
}

/**
 * SVG text made safe to serve as a connector's icon; undefined when nothing of an `<svg>` image is left.
 * `<style>` (which may `@import` or `url()` anything) and `<foreignObject>` (HTML inside) are removed whole.
 */
export function sanitizeSvg(svg: string): string | undefined {
  const clean = sanitizer()
    .sanitize(svg, {
      USE_PROFILES: { svg: true, svgFilters: true },
      FORBID_TAGS: ['style', 'foreignObject', 'image', 'a', 'script'],
    })
    .trim();
  if (!/^<svg[\s>]/.test(clean)) return undefined;
  return /^<svg[^>]*\sxmlns=/.test(clean) ? clean : clean.replace(/^<svg/, `<svg xmlns="${SVG_NS}"`);
}
