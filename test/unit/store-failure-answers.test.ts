import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { isTransientStoreError, StoreUnavailableError, StoreWriteError } from '../../src/adapters/store-ops.js';
import { toApiError } from '../../src/http/plugins/errors.js';

/** An error as node-postgres raises it: a message and the server's SQLSTATE, or a socket's code. */
function pgError(message: string, code?: string): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}

describe('answers to a request the database failed', () => {
  const transient: readonly [string, Error][] = [
    ['SQLite locked past its busy timeout', new Database.SqliteError('database is locked', 'SQLITE_BUSY')],
    ['an SQLite I/O error', new Database.SqliteError('disk I/O error', 'SQLITE_IOERR_WRITE')],
    ['an SQLite disk full', new Database.SqliteError('database or disk is full', 'SQLITE_FULL')],
    ["the SQLite writer's death", new StoreUnavailableError('the writer thread exited')],
    ['a PostgreSQL connection failure', pgError('connection failure', '08006')],
    ['a PostgreSQL shutdown', pgError('terminating connection due to administrator command', '57P01')],
    ['a PostgreSQL serialization failure past the retries', pgError('could not serialize access', '40001')],
    ['a PostgreSQL deadlock past the retries', pgError('deadlock detected', '40P01')],
    ['PostgreSQL out of connections', pgError('too many connections', '53300')],
    ['a reset socket', pgError('read ECONNRESET', 'ECONNRESET')],
    ["node-postgres's broken connection", pgError('Connection terminated unexpectedly')],
    ["node-postgres's pool timeout", pgError('timeout exceeded when trying to connect')],
  ];
  for (const [what, error] of transient) {
    it(`answers ${what} with 503 NOT_READY and Retry-After, for the identical request to come again`, () => {
      assert.equal(isTransientStoreError(error), true);
      const answer = toApiError(error);
      assert.equal(answer.status, 503);
      assert.equal(answer.code, 'NOT_READY');
      assert.equal(answer.headers['Retry-After'], '1');
      assert.match(answer.detail ?? '', /retry the identical request/);
    });
  }

  const bugs: readonly [string, Error][] = [
    ['a constraint the code broke', new Database.SqliteError('UNIQUE constraint failed: transactions.id', 'SQLITE_CONSTRAINT_PRIMARYKEY')],
    ['a write of an unknown row', new StoreWriteError('no outbox message x')],
    ['a PostgreSQL unique violation', pgError('duplicate key value violates unique constraint', '23505')],
    ['a PostgreSQL syntax error', pgError('syntax error at or near', '42601')],
    ['a plain exception', new TypeError("Cannot read properties of undefined (reading 'x')")],
  ];
  for (const [what, error] of bugs) {
    it(`answers ${what} with 500 INTERNAL: a bug, not a moment's failure`, () => {
      assert.equal(isTransientStoreError(error), false);
      assert.equal(toApiError(error).status, 500);
    });
  }
});
