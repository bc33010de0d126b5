/**
 * Refresh tokens (saved, used once, a reused one revoking its family: its session) and settings,
 * the values every instance shares (such as the token signing key).
 */
import { StoreWriteError } from '../store-ops.js';
import { SQL } from './pg-sql.js';
export async function saveRefreshToken(client, op) {
    const { record } = op;
    const result = await client.query(SQL.insertRefreshToken, [record.tokenHash, record.familyId, record.integratorId, record.expiresAt]);
    if (result.rowCount === 0)
        return { ok: false, error: new StoreWriteError('refresh token hash already stored') };
    if (op.forgetExpiredBefore !== null)
        await client.query(SQL.forgetExpiredRefreshTokens, [op.forgetExpiredBefore]);
    // After the tokens: a revocation is kept while a token of its session is.
    if (op.forgetRevokedBefore !== null)
        await client.query(SQL.forgetRevokedSessions, [op.forgetRevokedBefore]);
    return { ok: true, value: undefined };
}
/** The conditional UPDATE is the atomic step: of two concurrent uses, the second waits on the row and then finds it used. */
export async function useRefreshToken(client, op) {
    const used = await client.query(SQL.useRefreshToken, [op.tokenHash, op.now]);
    const row = used.rows[0];
    if (row) {
        return {
            ok: true,
            value: { kind: 'ok', record: { tokenHash: row.token_hash, familyId: row.family_id, integratorId: row.integrator_id, expiresAt: Number(row.expires_at) } },
        };
    }
    const found = (await client.query(SQL.refreshTokenByHash, [op.tokenHash])).rows[0];
    if (found === undefined || found.used_at === null)
        return { ok: true, value: { kind: 'unknown' } };
    await client.query(SQL.revokeFamily, [found.family_id]);
    await client.query(SQL.revokeSession, [found.family_id, op.now]);
    return { ok: true, value: { kind: 'reused', familyId: found.family_id } };
}
/** Insert-if-absent, then read: an instance that lost the race reads the winner's value. */
export async function createSetting(client, op) {
    await client.query(SQL.insertSetting, [op.name, op.value]);
    const row = (await client.query(SQL.settingByName, [op.name])).rows[0];
    if (row === undefined)
        return { ok: false, error: new Error(`setting ${op.name} vanished`) };
    return { ok: true, value: row.value };
}
//# sourceMappingURL=pg-tokens.js.map