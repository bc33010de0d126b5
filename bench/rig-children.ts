/**
 * The processes of a benchmark's rig in use (its service, its receiver), killed should the
 * benchmark itself be told to stop (a timeout's SIGTERM, ^C): they are processes of their own and
 * would outlive it. Exit handlers still run (scratchDir removes the databases).
 */
export const rigChildren = new Set<{ kill: (signal: NodeJS.Signals) => unknown }>();

let stopOnSignal = false;

/** Kill the rig's processes when this process is told to stop (installed once). */
export function stopRigOnSignal(): void {
  if (stopOnSignal) return;
  stopOnSignal = true;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      for (const child of rigChildren) child.kill('SIGKILL');
      process.exit(128 + (signal === 'SIGTERM' ? 15 : 2));
    });
  }
}
