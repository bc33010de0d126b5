/** The payment schemes of the spec's scheme enumeration, and what each one can do. */
export const SCHEMES = ['ZA_RTC', 'ZA_RPP', 'ZA_EFT', 'ZA_AC', 'ZA_RMS', 'CBPR_PLUS', 'TCIB'] as const;
export type SchemeName = (typeof SCHEMES)[number];

export const OPERATIONS = ['creditTransfer', 'identifierDetermination', 'requestToPay'] as const;
export type Operation = (typeof OPERATIONS)[number];

/**
 * Capabilities as data (STYLE.md rule 6). ZA_AC (Authenticated Collections) and ZA_RMS
 * (Registered Mandate Service) are collection schemes: they carry no credit transfer, so a
 * credit transfer naming them is well formed but not processable here (422).
 */
export const SCHEME_CAPABILITIES: Readonly<Record<SchemeName, readonly Operation[]>> = {
  ZA_RTC: ['creditTransfer'],
  ZA_RPP: ['creditTransfer', 'identifierDetermination', 'requestToPay'],
  ZA_EFT: ['creditTransfer'],
  ZA_AC: [],
  ZA_RMS: [],
  CBPR_PLUS: ['creditTransfer'],
  TCIB: ['creditTransfer'],
};

export function isSchemeName(value: unknown): value is SchemeName {
  return typeof value === 'string' && (SCHEMES as readonly string[]).includes(value);
}

export function supports(scheme: SchemeName, operation: Operation): boolean {
  return SCHEME_CAPABILITIES[scheme].includes(operation);
}
