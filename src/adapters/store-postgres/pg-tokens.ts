/**
 * Refresh tokens (saved, spent once by rotation, a reuse after the reuse interval revoking its family: its session) and settings,
 * the values every instance shares (such as the token signing key).
 */
import { StoreWriteError, type OpOf } from '../store-ops.js';
import type { Client, ItemResult } from './pg-batch.js';
import { SQL } from './pg-sql.js';

interface SpentRow {
  family_id: string;
  used_at: string | null;
  successor: string | null;
  session_alive: boolean;
}

export async function saveRefreshToken(client: Client, op: Omit<OpOf<'saveRefreshToken'>, 'kind'>): Promise<ItemResult> {
  const { record } = op;
  const result = await client.query(SQL.insertRefreshToken, [record.tokenHash, record.familyId, record.integratorId, record.expiresAt]);
  if (result.rowCount === 0) return { ok: false, error: new StoreWriteError('refresh token hash already stored') };
  if (op.forgetSealedBefore !== null) await client.query(SQL.forgetSealedSuccessors, [op.forgetSealedBefore]);
  if (op.forgetExpiredBefore !== null) await client.query(SQL.forgetExpiredRefreshTokens, [op.forgetExpiredBefore]);
  // After the tokens: a revocation is kept while a token of its session is.
  if (op.forgetRevokedBefore !== null) await client.query(SQL.forgetRevokedSessions, [op.forgetRevokedBefore]);
  return { ok: true, value: undefined };
}

/**
 * Spend the token and store its successor; else, when it was spent less than the reuse interval
 * ago and its session lives, hand back the successor sealed then; else revoke its session. In
 * every case, first erase the sealed successors whose reuse interval is over.
 */
export async function rotateRefreshToken(client: Client, op: OpOf<'rotateRefreshToken'>): Promise<ItemResult> {
  const { rotation } = op;
  await client.query(SQL.forgetSealedSuccessors, [rotation.now - rotation.reuseIntervalMs]);
  const spent = await client.query(SQL.spendRefreshToken, [rotation.tokenHash, rotation.now, rotation.sealedSuccessor ?? null]);
  if (spent.rowCount !== 0) {
    const saved = await saveRefreshToken(client, {
      record: rotation.successor,
      forgetExpiredBefore: rotation.forgetExpiredBefore,
      forgetRevokedBefore: rotation.forgetRevokedBefore,
      forgetSealedBefore: null,
    });
    return 'ok' in saved && saved.ok ? { ok: true, value: { kind: 'rotated' } } : saved;
  }
  const found = (await client.query<SpentRow>(SQL.spentRefreshToken, [rotation.tokenHash])).rows[0];
  if (found === undefined || found.used_at === null) return { ok: true, value: { kind: 'unknown' } };
  const usedAt = Number(found.used_at);
  if (found.session_alive && found.successor !== null && rotation.now - usedAt < rotation.reuseIntervalMs) {
    return { ok: true, value: { kind: 'replayed', sealedSuccessor: found.successor, usedAt } };
  }
  await client.query(SQL.revokeFamily, [found.family_id]);
  await client.query(SQL.revokeSession, [found.family_id, rotation.now]);
  return { ok: true, value: { kind: 'reused', familyId: found.family_id } };
}

/** Insert-if-absent, then read: an instance that lost the race reads the winner's value. */
export async function createSetting(client: Client, op: OpOf<'createSetting'>): Promise<ItemResult> {
  await client.query(SQL.insertSetting, [op.name, op.value]);
  const row = (await client.query<{ value: string }>(SQL.settingByName, [op.name])).rows[0];
  if (row === undefined) return { ok: false, error: new Error(`setting ${op.name} vanished`) };
  return { ok: true, value: row.value };
}
