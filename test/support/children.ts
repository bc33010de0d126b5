import type { ChildProcess } from 'node:child_process';
import { constants } from 'node:os';

/**
 * Child processes of a test file (services, receivers, operator simulators) are killed when the
 * file's process exits, whether its tests passed, failed half-way or were cut short: nothing a
 * failed test left running may outlive the file or hold its ports. A file that overruns the
 * runner's time per file (run-tests.ts) is ended with SIGTERM; without a listener Node would die of
 * it at once, without its 'exit' event, and leave its children running.
 */
const live = new Set<ChildProcess>();

function killLive(): void {
  for (const child of live) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

process.once('exit', killLive);
// Ends the process as SIGTERM would, unless another listener (a benchmark's) ends it its own way.
process.once('SIGTERM', () => {
  killLive();
  if (process.listenerCount('SIGTERM') === 0) process.exit(128 + constants.signals.SIGTERM);
});

/** The child, to be killed at the latest when this process exits: `tracked(spawn(...))`. */
export function tracked<T extends ChildProcess>(child: T): T {
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}
