// Prints what @inlay/react adds to a host's production build (see host-size.mjs for how it is measured): the
// first view with every surface, the chunks loaded on demand, and each surface alone with <InlayProvider>.
// Exits 1 above the budget. `pnpm size` runs it; test/pack/host-size.test.ts holds the budget in CI.
import { BUDGET, hostSize, SURFACES } from './host-size.mjs';

const kb = (n) => `${(n / 1024).toFixed(2)} kB`;
const all = await hostSize();
console.log(
  `A host's Vite build, first view: +${kb(all.total)} gzip (JS ${kb(all.js)}, CSS ${kb(all.css)}); budget ${kb(BUDGET)}`,
);
console.log('Loaded on demand:');
for (const [file, bytes] of all.lazy) console.log(`  ${file.padEnd(36)} ${kb(bytes)} gzip`);
console.log('Each surface alone, with <InlayProvider>, first view (JS and CSS):');
for (const surface of Object.keys(SURFACES)) {
  const one = await hostSize([surface]);
  console.log(`  ${surface.padEnd(36)} +${kb(one.total)} gzip`);
}
if (all.total > BUDGET) {
  console.error(`over budget by ${kb(all.total - BUDGET)}`);
  process.exitCode = 1;
}
