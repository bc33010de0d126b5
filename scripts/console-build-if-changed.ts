/**
 * The console half of `npm run build`: builds the console (`npm run console:build`) only when it
 * may have changed since its last build, so `npm start` on a built tree starts in seconds. It has
 * changed when any file or folder under console/, or package-lock.json (the versions of Preact and
 * Vite), was modified at or after the moment the last successful build began, or when there is
 * no record of one. Folders count because adding, removing or renaming a file changes its
 * folder's time even when the file itself keeps an old one.
 *
 * The record is a stamp file whose time is set to when that build began (less a second, as file
 * times may trail the clock by a tick): a source saved while the build was running is therefore
 * newer than the stamp, and the next build builds again.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** What the built console depends on, relative to the repository. */
export const CONSOLE_INPUTS = ['console', 'package-lock.json'] as const;
/** The built page, and the stamp recording when its build began (outside dist/console, which Vite empties). */
export const CONSOLE_OUTPUT = 'dist/console/index.html';
export const CONSOLE_STAMP = 'dist/console.built';
/** File times may trail the clock by a tick; a stamp this much earlier errs towards one more build. */
const CLOCK_SLACK_MS = 1_000;

/** Why the console must be built, or undefined when the last build is newer than every input. */
export function consoleStale(root: string): string | undefined {
  if (!existsSync(join(root, CONSOLE_OUTPUT))) return `${CONSOLE_OUTPUT} is missing`;
  if (!existsSync(join(root, CONSOLE_STAMP))) return `${CONSOLE_STAMP} is missing`;
  const builtAt = statSync(join(root, CONSOLE_STAMP)).mtimeMs;
  for (const input of CONSOLE_INPUTS) {
    const changed = changedSince(join(root, input), builtAt);
    if (changed !== undefined) return `${changed.slice(root.length + 1)} changed`;
  }
  return undefined;
}

/** The first path at or below `path` modified at or after `since`. */
function changedSince(path: string, since: number): string | undefined {
  if (!existsSync(path)) return undefined;
  const stat = lstatSync(path);
  if (stat.mtimeMs >= since) return path;
  if (!stat.isDirectory()) return undefined;
  for (const entry of readdirSync(path)) {
    const changed = changedSince(join(path, entry), since);
    if (changed !== undefined) return changed;
  }
  return undefined;
}

/** Records that a successful build began at `startedAtMs`. */
export function markConsoleBuilt(root: string, startedAtMs: number): void {
  const stamp = join(root, CONSOLE_STAMP);
  writeFileSync(stamp, 'the console build recorded by scripts/console-build-if-changed.ts began at this file time\n');
  const at = (startedAtMs - CLOCK_SLACK_MS) / 1_000;
  utimesSync(stamp, at, at);
}

function main(): number {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const stale = consoleStale(root);
  if (stale === undefined) return 0;
  const startedAt = Date.now();
  const build = spawnSync('npm', ['run', 'console:build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) return build.status ?? 1;
  markConsoleBuilt(root, startedAt);
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = main();
