import { readFile } from 'node:fs/promises';
import { uuid7 } from '../../lib/uuid7.js';
export const systemClock = { now: () => Date.now() };
/** Time-ordered UUIDs (version 7): unique like random ones, and cheap to index (lib/uuid7.ts). */
export const systemIds = { uuid: () => uuid7() };
/**
 * The process's open-file limit (`ulimit -n`, after Node raised the soft limit to the hard one at
 * start), from /proc/self/limits; undefined where there is no such file (not Linux) or it says
 * "unlimited".
 */
export async function openFilesLimit() {
    let text;
    try {
        text = await readFile('/proc/self/limits', 'utf8');
    }
    catch {
        return undefined;
    }
    const soft = /^Max open files\s+(\d+)\s/m.exec(text)?.[1];
    return soft === undefined ? undefined : Number(soft);
}
//# sourceMappingURL=system.js.map