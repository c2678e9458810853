#!/usr/bin/env node
// Checks the subjects of the commits after SINCE (the last commit before the rule, or `--since <rev>`): at most
// 72 characters, a lowercase scope and a colon (`engine: resume after the last recorded step`), then a sentence.
// Merge commits are left out. Exits 1 naming each commit that breaks a rule.
import { execFileSync } from 'node:child_process';

const SINCE = '183c87a43c65feed0978c344429badbd05c50d44';
const MAX = 72;
const SCOPED = /^[a-z0-9@][a-z0-9@/._-]*(, ?[a-z0-9@][a-z0-9@/._-]*)*: [^\s]/;

const at = process.argv.indexOf('--since');
const since = at > 0 ? process.argv[at + 1] : SINCE;
const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).trim();

let base;
try {
  base = git('rev-parse', '--verify', '--quiet', `${since}^{commit}`);
} catch {
  // A shallow clone without the base: nothing to compare against, so nothing is checked.
  console.log(`commit subjects: ${since} is not in this clone; nothing checked`);
  process.exit(0);
}
const lines = git('log', '--no-merges', '--format=%h%x09%s', `${base}..HEAD`).split('\n').filter(Boolean);
const bad = [];
for (const line of lines) {
  const [hash, subject] = line.split('\t');
  const problems = [];
  if ([...subject].length > MAX) problems.push(`${[...subject].length} characters (at most ${MAX})`);
  if (!SCOPED.test(subject)) problems.push('no `scope: ` prefix');
  if (problems.length) bad.push(`${hash} ${subject}\n    ${problems.join('; ')}`);
}
if (bad.length) {
  console.error(
    `commit subjects: ${bad.length} of ${lines.length} break the rules (CONTRIBUTING.md#commits):`,
  );
  for (const b of bad) console.error(`  ${b}`);
  process.exit(1);
}
console.log(`commit subjects: ${lines.length} checked, all scoped and at most ${MAX} characters`);
