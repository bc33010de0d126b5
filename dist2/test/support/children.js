/**
 * Child processes of a test file (services, receivers, operator simulators) are killed when the
 * file's process exits, whether its tests passed, failed half-way or were cut short: the runner
 * (run-tests.ts, `--test-force-exit`) ends each file once its tests are done, and nothing a failed
 * test left running may outlive it, hold its ports or keep the suite waiting.
 */
const live = new Set();
process.once('exit', () => {
    for (const child of live)
        if (child.exitCode === null && child.signalCode === null)
            child.kill('SIGKILL');
});
/** The child, to be killed at the latest when this process exits: `tracked(spawn(...))`. */
export function tracked(child) {
    live.add(child);
    child.once('exit', () => live.delete(child));
    return child;
}
//# sourceMappingURL=children.js.map