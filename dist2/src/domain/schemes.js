/** The payment schemes of the spec's scheme enumeration, and what each one can do. */
export const SCHEMES = ['ZA_RTC', 'ZA_RPP', 'ZA_EFT', 'ZA_AC', 'ZA_RMS', 'CBPR_PLUS', 'TCIB'];
export const OPERATIONS = ['creditTransfer', 'identifierDetermination', 'requestToPay'];
/**
 * Capabilities as data (STYLE.md rule 6). ZA_AC (Authenticated Collections) and ZA_RMS
 * (Registered Mandate Service) are collection schemes: they carry no credit transfer, so a
 * credit transfer naming them is well formed but not processable here (422).
 */
export const SCHEME_CAPABILITIES = {
    ZA_RTC: ['creditTransfer'],
    ZA_RPP: ['creditTransfer', 'identifierDetermination', 'requestToPay'],
    ZA_EFT: ['creditTransfer'],
    ZA_AC: [],
    ZA_RMS: [],
    CBPR_PLUS: ['creditTransfer'],
    TCIB: ['creditTransfer'],
};
export function isSchemeName(value) {
    return typeof value === 'string' && SCHEMES.includes(value);
}
export function supports(scheme, operation) {
    return SCHEME_CAPABILITIES[scheme].includes(operation);
}
//# sourceMappingURL=schemes.js.map