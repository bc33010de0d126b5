import type { IntegratorConfig, ProxyPaymentsConfig } from '../config/types.js';
import { ApiError } from '../domain/errors.js';
import type { ProxyLink } from '../domain/machines/credit-transfer.js';
import type { IdData } from '../domain/machines/identifier-determination.js';
import { IDENTIFIER_SCHEMAS, lookupKey, type IdentifierSchema, type ResolvedAccount } from '../domain/messages/identifier-determination.js';
import type { ValidCreditTransfer } from '../domain/messages/validate.js';
import type { Clock } from '../ports/clock.js';
import type { Store, TransactionRecord } from '../ports/store.js';

/** Whether the link rule applies: a ZA_RPP payment to a proxy. */
export function paysProxy(transfer: ValidCreditTransfer): boolean {
  return transfer.scheme === 'ZA_RPP' && transfer.message.creditorAccount.proxy?.value !== undefined;
}

/** The link, unless the message is a retry of one already stored: that is answered as the first was, whatever became of its determination since. */
export async function linkUnlessRetry(deps: LinkDeps, integrator: IntegratorConfig, transfer: ValidCreditTransfer): Promise<ProxyLink | undefined> {
  if ((await deps.store.findMessage(integrator.id, transfer.messageId)) !== undefined) return undefined;
  return proxyLink(deps, integrator, transfer);
}

type LinkDeps = { readonly store: Store; readonly clock: Clock; readonly proxyPayments: ProxyPaymentsConfig };

/** Determinations of one proxy looked at when linking a payment; the newest successful one wins. */
const CANDIDATES_MAX = 20;

/**
 * PayShap makes identifier determination mandatory before a payment to a proxy: the sender sees
 * the account holder's name, confirms, and only then pays. A ZA_RPP credit transfer to a proxy is
 * linked to this integrator's successful determination of that same proxy, at the payment's
 * creditor agent, within the validity window — the one with the payment's uetr if there is one,
 * else the newest — and its scheme
 * message then carries the resolved account beside the proxy. Without one it is refused (422)
 * unless the deployment switched the requirement off. Account-based payments need none.
 */
async function proxyLink(deps: LinkDeps, integrator: IntegratorConfig, transfer: ValidCreditTransfer): Promise<ProxyLink | undefined> {
  const proxy = transfer.message.creditorAccount.proxy;
  if (!paysProxy(transfer) || proxy?.value === undefined) return undefined;
  const schema = IDENTIFIER_SCHEMAS.find((known): known is Exclude<IdentifierSchema, 'GENERIC'> => known !== 'GENERIC' && known === proxy.schema);
  const key = schema === undefined || proxy.namespace === undefined ? undefined : lookupKey('ZA_RPP', { schema, namespace: proxy.namespace, value: proxy.value });
  const since = deps.clock.now() - deps.proxyPayments.determinationValidityMs;
  const creditorBank = transfer.message.creditorAgent.bicfi?.slice(0, 8);
  const resolved = (key === undefined ? [] : await deps.store.recentDeterminations(integrator.id, key, since, CANDIDATES_MAX)).flatMap((candidate) => {
    const account = resolvedAccountOf(candidate);
    return account?.traditionalIdentifier === undefined ? [] : [{ candidate, account: account.traditionalIdentifier, bank: account.accountAgentBicfi }];
  });
  // The payment goes to the bank the proxy resolved to, or it is not the payment this determination prepared.
  const found = resolved.filter(({ bank }) => creditorBank === undefined || bank === undefined || bank.slice(0, 8) === creditorBank);
  const chosen = found.find(({ candidate }) => candidate.uetr === transfer.uetr) ?? found[0];
  if (chosen !== undefined) return { transactionId: chosen.candidate.id, uetr: chosen.candidate.uetr, account: chosen.account };
  if (!deps.proxyPayments.determinationRequired) return undefined;
  const window = `in the last ${Math.round(deps.proxyPayments.determinationValidityMs / 1000)} s`;
  const elsewhere = resolved.find(({ candidate }) => candidate.uetr === transfer.uetr) ?? resolved[0];
  if (elsewhere?.bank !== undefined) {
    throw new ApiError(
      'IDENTIFIER_NOT_DETERMINED',
      `this integrator's identifier determination of this proxy (uetr ${elsewhere.candidate.uetr}, ${window}) resolved it to an account at ${elsewhere.bank}, ` +
        `but the payment's creditorAgent is ${transfer.message.creditorAgent.bicfi ?? ''}: pay the bank the proxy resolved to, or determine the proxy again`,
      [{ field: '/creditorAgent/bicfi', message: `names another bank than ${elsewhere.bank}, where the identifier determination resolved the proxy` }],
    );
  }
  throw new ApiError(
    'IDENTIFIER_NOT_DETERMINED',
    `no successful identifier determination of this proxy by this integrator ${window}: ` +
      'POST /api/v1/identifiers/outbound/identifier-determination first, show the known-as name to the sender, then pay',
    [{ field: '/creditorAccount/proxy', message: schema === undefined || proxy.namespace === undefined ? 'needs schema MOBILE or CUSTOM and its namespace to be linked to a determination' : 'has no successful identifier determination' }],
  );
}

/** The account a successful determination resolved to; undefined for a failed or undecided one. */
function resolvedAccountOf(transaction: TransactionRecord): ResolvedAccount | undefined {
  const determination = (transaction.data as unknown as IdData).determination;
  return determination?.outcome === 'SUCCESSFUL' ? determination.account : undefined;
}
