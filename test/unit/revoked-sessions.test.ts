import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openStore } from '../../src/adapters/store.js';
import { RevokedSessions } from '../../src/http/plugins/revoked-sessions.js';
import type { Store } from '../../src/ports/store.js';
import { ManualClock } from '../support/auth-app.js';

const T0 = Date.UTC(2025, 0, 15, 12, 0, 0);
const WINDOW_MS = 60_000;

/** Revoke a session in the store as a reused refresh token does. */
async function revokeInStore(store: Store, sessionId: string, at: number): Promise<void> {
  const record = { tokenHash: `hash-${sessionId}`, familyId: sessionId, integratorId: 'bank-a', expiresAt: at + 600_000 };
  await store.saveRefreshToken(record);
  const rotate = () =>
    store.rotateRefreshToken({
      tokenHash: record.tokenHash,
      now: at,
      successor: { ...record, tokenHash: `successor-${sessionId}` },
      sealedSuccessor: 'sealed',
      reuseIntervalMs: 0,
      forgetExpiredBefore: 0,
      forgetRevokedBefore: 0,
    });
  assert.equal((await rotate()).kind, 'rotated');
  assert.equal((await rotate()).kind, 'reused');
}

void describe('revoked sessions in memory', () => {
  void it('knows a revocation made here at once, and one made elsewhere from the next read of the store', async () => {
    const store = await openStore('sqlite::memory:');
    try {
      const clock = new ManualClock(T0);
      const sessions = new RevokedSessions(store, clock, WINDOW_MS);
      sessions.revoked('here', T0);
      assert.equal(sessions.has('here'), true);
      await revokeInStore(store, 'elsewhere', T0);
      assert.equal(sessions.has('elsewhere'), false, 'not read yet');
      await sessions.refresh();
      assert.equal(sessions.has('elsewhere'), true);
      assert.equal(sessions.has('here'), true, 'a read adds; it never drops what is within the window');
      assert.equal(sessions.has('never-revoked'), false);
    } finally {
      await store.close();
    }
  });

  void it('drops a revocation once it is older than the window, when its access tokens have all expired', async () => {
    const store = await openStore('sqlite::memory:');
    try {
      const clock = new ManualClock(T0);
      const sessions = new RevokedSessions(store, clock, WINDOW_MS);
      await revokeInStore(store, 'old', T0);
      await sessions.refresh();
      clock.advance(WINDOW_MS);
      await sessions.refresh();
      assert.equal(sessions.has('old'), true, 'revoked exactly one window ago: kept');
      clock.advance(1);
      await sessions.refresh();
      assert.equal(sessions.has('old'), false);
    } finally {
      await store.close();
    }
  });
});
