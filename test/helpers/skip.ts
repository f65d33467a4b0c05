import type { TestContext, TestOptions } from 'vitest';

declare module 'vitest' {
  interface TaskMeta {
    /** Why the test was skipped; the JSON report carries it to npm test's list of skipped tests (scripts/test.mjs). */
    skipReason?: string;
  }
}

/**
 * Options for `describe`/`it` that skip it when `reason` is given. Vitest's own skipIf keeps no reason, so the reason
 * is printed when the file is collected (the test output shows it under the file) and kept in the task's meta, which
 * the suite's tests inherit.
 */
export function skipFor(reason: string | null | undefined): TestOptions {
  if (!reason) return {};
  console.warn(`skipped: ${reason}`);
  return { skip: true, meta: { skipReason: reason } };
}

/** Skips the running test from inside it, for a reason only known once it has started. */
export function skipNow(ctx: TestContext, reason: string): never {
  ctx.task.meta.skipReason = reason;
  console.warn(`skipped: ${ctx.task.name}: ${reason}`);
  return ctx.skip(reason);
}
