// The minimal App Router host of next.test.ts: no lint, no type-check (the pack test times the build, and the
// packages' types are checked elsewhere).
export default {
  eslint: { ignoreDuringBuilds: true },
  typescript: { ignoreBuildErrors: true },
};
