// Type-level checks, enforced by `pnpm typecheck` (tsc over test/) and run as no-ops by vitest.
import type { InlayError } from '@inlay/client';
import { describe, expectTypeOf, it } from 'vitest';
import type { useInstall, useRerun, useToggleWorkflow, useUninstall } from '../../src/index.ts';

describe('public types', () => {
  it('types every mutation hook error as InlayError', () => {
    expectTypeOf<ReturnType<typeof useInstall>['error']>().toEqualTypeOf<InlayError | null>();
    expectTypeOf<ReturnType<typeof useUninstall>['error']>().toEqualTypeOf<InlayError | null>();
    expectTypeOf<ReturnType<typeof useToggleWorkflow>['error']>().toEqualTypeOf<InlayError | null>();
    expectTypeOf<ReturnType<typeof useRerun>['error']>().toEqualTypeOf<InlayError | null>();
  });
});
