import { ApiError } from '../domain/errors.js';
/**
 * The fields by which one agent fails to name the integrator's institution: each identifier that
 * names another, at its own pointer, or the agent itself when it gives none.
 */
function agentProblems(own, { agent, pointer }) {
    const errors = [];
    const differing = [];
    const bic = agent?.bicfi;
    if (typeof bic === 'string' && (own.bicfi === undefined || bic.slice(0, 8) !== own.bicfi.slice(0, 8))) {
        errors.push({ field: `${pointer}/bicfi`, message: "is not the integrator's institution (compared on its first 8 characters)" });
        differing.push(`bicfi ${bic}`);
    }
    const memberIds = [
        [agent?.clearingSystemMemberId?.memberId, `${pointer}/clearingSystemMemberId/memberId`],
        [agent?.memberId, `${pointer}/memberId`],
    ];
    for (const [memberId, field] of memberIds) {
        if (typeof memberId === 'string' && memberId !== own.memberId) {
            errors.push({ field, message: "is not the integrator's clearing-system member id" });
            differing.push(`memberId ${memberId}`);
        }
    }
    if (typeof bic !== 'string' && memberIds.every(([memberId]) => typeof memberId !== 'string')) {
        const message = "must identify the integrator's institution by bicfi or clearingSystemMemberId.memberId";
        return { errors: [{ field: pointer, message }], detail: `${pointer} ${message}` };
    }
    if (errors.length === 0)
        return undefined;
    return { errors, detail: `${pointer} (${differing.join(', ')}) is not the integrator's institution` };
}
/**
 * An integrator may only send payments from its own institution. Each agent must name it by BIC
 * (compared on the 8-character institution part, so a branch BIC of the same bank matches) or by
 * clearing-system member id; every identifier it gives must match, and it must give at least one.
 * Every agent that does not is reported in one 403, each offending field by its pointer.
 */
export function checkOwnInstitution(integrator, agents) {
    const problems = agents.map((agent) => agentProblems(integrator.institution, agent)).filter((problem) => problem !== undefined);
    if (problems.length === 0)
        return;
    throw new ApiError('INSTITUTION_NOT_ALLOWED', problems.map((problem) => problem.detail).join('; '), problems.flatMap((problem) => problem.errors));
}
//# sourceMappingURL=institution.js.map