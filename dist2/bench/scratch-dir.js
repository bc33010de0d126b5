import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
/**
 * A new directory under the temp directory for one benchmark's database, removed when the
 * benchmark process exits: a minute of end-to-end load leaves close to a gigabyte behind.
 */
export function scratchDir(prefix) {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return dir;
}
//# sourceMappingURL=scratch-dir.js.map