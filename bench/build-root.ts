import { join, resolve } from 'node:path';

/**
 * The compiled service a benchmark starts: `dist/src/main.js` under `BENCH_BUILD_ROOT` (another
 * build of regpay, e.g. the scratch worktree of `npm run bench -- --against <ref>`), or this
 * build's own when it is unset. Only the service comes from there: the load, its payloads and the
 * configuration are this build's, so two builds are measured by the same bench.
 */
export function serviceMain(): string | undefined {
  const root = process.env.BENCH_BUILD_ROOT;
  return root === undefined || root === '' ? undefined : join(resolve(root), 'dist', 'src', 'main.js');
}
