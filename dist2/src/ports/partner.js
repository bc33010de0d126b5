/** The `error` text of an attempt cut short by the caller's signal (not the integrator's fault). */
export const SEND_ABORTED = 'aborted by shutdown';
//# sourceMappingURL=partner.js.map