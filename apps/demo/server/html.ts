export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** A sandbox page: always under a banner that says it is the demo's stand-in, not the real app. */
export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1f2328; background: #fafafa; }
  .banner { background: repeating-linear-gradient(45deg, #ffe8a3, #ffe8a3 12px, #ffd65c 12px, #ffd65c 24px);
    color: #3d2e00; padding: .6rem 1rem; font-weight: 600; border-bottom: 2px solid #c99a00; }
  main { max-width: 46rem; margin: 2rem auto; padding: 0 1rem; }
  button { font: inherit; padding: .5rem 1.2rem; margin-right: .5rem; border-radius: 6px; border: 1px solid #888; background: #fff; cursor: pointer; }
  button.primary { background: #1f6feb; color: #fff; border-color: #1f6feb; }
  li { margin: .3rem 0; } pre { white-space: pre-wrap; margin: .2rem 0; color: #555; }
  time { color: #777; font-size: .85em; }
</style></head><body>
<div class="banner" role="note">SANDBOX — a stand-in for the real app, run locally by the Acme CRM demo. No data leaves this machine.</div>
<main>${body}</main></body></html>`;
}
