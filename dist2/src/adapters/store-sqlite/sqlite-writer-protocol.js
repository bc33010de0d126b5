/**
 * Messages between the SQLite store (main thread) and its writer worker (sqlite-writer.ts).
 * Everything crossing is structured-cloned: write ops and their results are plain data (bigint
 * included); errors are sent as their parts and rebuilt, because cloning drops an error's class
 * and its `code`, which callers tell errors apart by.
 */
import Database from 'better-sqlite3';
import { StoreWriteError } from '../store-ops.js';
export function errorToWire(error) {
    if (!(error instanceof Error))
        return { name: 'Error', message: String(error), code: undefined, stack: undefined };
    const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined;
    return { name: error.name, message: error.message, code, stack: error.stack };
}
/** The error as the writer saw it: same class for the ones callers check (StoreWriteError, SqliteError), stack from the writer. */
export function errorFromWire(wire) {
    let error;
    if (wire.name === 'StoreWriteError')
        error = new StoreWriteError(wire.message);
    else if (wire.name === 'SqliteError')
        error = new Database.SqliteError(wire.message, wire.code ?? 'SQLITE_ERROR');
    else if (wire.name === 'RangeError')
        error = new RangeError(wire.message);
    else if (wire.name === 'TypeError')
        error = new TypeError(wire.message);
    else {
        error = new Error(wire.message);
        error.name = wire.name;
        if (wire.code !== undefined)
            Object.assign(error, { code: wire.code });
    }
    if (wire.stack !== undefined)
        error.stack = wire.stack;
    return error;
}
//# sourceMappingURL=sqlite-writer-protocol.js.map