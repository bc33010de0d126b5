import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { acceptCreditTransfer, type AcceptCreditTransferDeps } from '../../app/accept-credit-transfer.js';
import { determineIdentifier, type DetermineIdentifierDeps } from '../../app/determine-identifier.js';
import { requestToPay, type RequestToPayDeps } from '../../app/request-to-pay.js';
import type { Config, IntegratorConfig } from '../../config/types.js';
import { simulatorTestValues, type SampleInput, type SimulatorTestValue } from '../../connectors/simulator/catalogue.js';
import { defaultDirectoryPath, loadDirectory, type DirectoryEntry } from '../../connectors/simulator/directory.js';
import { ApiError, type FieldError } from '../../domain/errors.js';
import { SCHEMES, type SchemeName } from '../../domain/schemes.js';
import { validateOutboundIdentifierDeterminationRequest } from '../../domain/messages/identifier-determination.js';
import { validateOutboundRequestToPay } from '../../domain/messages/request-to-pay.js';
import { validateOutboundCreditTransfer } from '../../domain/messages/validate.js';
import { parseJson } from '../../lib/json.js';
import { newTraceparent } from '../../lib/trace.js';
import { buildExamples } from '../openapi/examples.js';
import { errorBody } from '../plugins/errors.js';
import { errorResponse } from '../schemas.js';
import { domainValidator, type Validated } from '../validation.js';
import { ADMIN_PREFIX, adminErrors, adminSchema, isRecord } from './admin.js';

/**
 * The simulator's test values for operators (the console's Simulator view), registered in the
 * admin scope, for the schemes that run on the built-in simulator and some integrator has:
 *
 * - `GET  /admin/v1/simulator/test-values` lists them (connectors/simulator/catalogue.ts);
 * - `POST /admin/v1/simulator/samples` `{"testValueId", "integratorId"?}` sends a sample request
 *   carrying one, as that integrator (default: the first that has the scheme), through the very
 *   validation and use case the integrator API runs, and answers what that API would have
 *   answered (status and body) with the transaction it made.
 *
 * A sample is only ever sent to a scheme whose connector is the simulator: a button in the
 * console can never move real money.
 */
export type SampleDeps = AcceptCreditTransferDeps & DetermineIdentifierDeps & RequestToPayDeps;

export interface AdminSimulatorDeps {
  readonly config: Pick<Config, 'schemes' | 'integrators'>;
  readonly samples: SampleDeps;
}

const ID_CHARS_MAX = 200;

export function adminSimulatorRoutes(scope: FastifyInstance, deps: AdminSimulatorDeps): void {
  const simulated = SCHEMES.filter(
    (scheme) => deps.config.schemes[scheme]?.connector === 'simulator' && deps.config.integrators.some((integrator) => integrator.schemes.includes(scheme)),
  );
  if (simulated.length === 0) return;
  const testValues = simulatorTestValues(simulated, directoryOf(deps.config));
  const byId = new Map(testValues.map((value) => [value.id, value]));

  scope.get(
    `${ADMIN_PREFIX}/simulator/test-values`,
    {
      schema: {
        ...adminSchema,
        operationId: 'adminSimulatorTestValues',
        summary: "The built-in simulator's test values, with what each makes the simulated scheme do",
        response: { 200: { description: 'The test values', content: { 'application/json': { schema: Type.Ref('SimulatorTestValues') } } }, ...adminErrors },
      },
    },
    () => ({ testValues: testValues.map(({ input: _input, ...view }) => view) }),
  );

  scope.post<{ Body: { testValueId: string; integratorId?: string } }>(
    `${ADMIN_PREFIX}/simulator/samples`,
    {
      schema: {
        ...adminSchema,
        operationId: 'adminSendSimulatorSample',
        summary: 'Send a sample request carrying one test value, as an integrator, to the built-in simulator',
        description:
          'The request goes through the validation and the use case of the integrator API; the answer says what that API answered ' +
          '(status and body) and which transaction it made. Identifier determinations are answered when the scheme answers (sync).',
        body: Type.Ref('SimulatorSampleRequest'),
        response: {
          200: { description: 'What the integrator API answered', content: { 'application/json': { schema: Type.Ref('SimulatorSampleResult') } } },
          ...adminErrors,
          404: errorResponse('No such test value or integrator'),
        },
      },
      validatorCompiler: domainValidator(validateSampleRequest, 'simulator sample'),
    },
    async (request) => {
      const testValue = byId.get(request.body.testValueId);
      if (testValue === undefined) throw new ApiError('NOT_FOUND', `No test value ${request.body.testValueId}`, [{ field: '/testValueId', message: 'is not a test value of this service' }]);
      const integrator = integratorFor(deps.config.integrators, testValue.scheme, request.body.integratorId);
      return sendSample(deps.samples, integrator, testValue);
    },
  );
}

function directoryOf(config: Pick<Config, 'schemes'>): readonly DirectoryEntry[] {
  const loaded = loadDirectory(config.schemes.ZA_RPP?.simulatorDirectory ?? defaultDirectoryPath());
  // A directory the simulator cannot load fails its determinations too; the list then has none.
  return loaded.ok ? loaded.directory.entries : [];
}

function integratorFor(integrators: readonly IntegratorConfig[], scheme: SchemeName, integratorId: string | undefined): IntegratorConfig {
  if (integratorId !== undefined) {
    const named = integrators.find((integrator) => integrator.id === integratorId);
    if (named === undefined) throw new ApiError('NOT_FOUND', `No integrator ${integratorId}`, [{ field: '/integratorId', message: 'is not a configured integrator' }]);
    return named;
  }
  const first = integrators.find((integrator) => integrator.schemes.includes(scheme));
  if (first === undefined) throw new ApiError('NOT_FOUND', `No integrator has ${scheme}`, [{ field: '/testValueId', message: `no integrator has ${scheme} enabled` }]);
  return first;
}

/** The answer of the integrator API to a sample, and the transaction it made (null when it made none). */
interface SampleResult {
  readonly testValueId: string;
  readonly integratorId: string;
  readonly status: number;
  readonly transactionId: string | null;
  readonly uetr: string | null;
  readonly body: unknown;
}

async function sendSample(deps: SampleDeps, integrator: IntegratorConfig, testValue: SimulatorTestValue): Promise<SampleResult> {
  const message = sampleMessage(testValue.input, testValue.scheme, integrator, deps);
  const rawBody = JSON.stringify(message.body);
  const parsed = parseJson(rawBody);
  const answer = (status: number, body: unknown, transactionId: string | null = null): SampleResult => ({
    testValueId: testValue.id,
    integratorId: integrator.id,
    status,
    transactionId,
    uetr: message.uetr,
    body,
  });
  const invalid = (errors: readonly FieldError[]) => answer(400, errorBody(new ApiError('VALIDATION_FAILED', 'The sample failed validation', errors)));
  if (!parsed.ok) return invalid([{ field: parsed.pointer, message: parsed.message }]);
  const trace = { traceparent: newTraceparent(), tracestate: null };
  try {
    let status = 202;
    let body: unknown = null;
    if (message.kind === 'CREDIT_TRANSFER') {
      const valid = validateOutboundCreditTransfer(parsed.value);
      if (!valid.ok) return invalid(valid.errors);
      await acceptCreditTransfer(deps, { integrator, transfer: valid.value, rawBody, trace });
    } else if (message.kind === 'IDENTIFIER_DETERMINATION') {
      const valid = validateOutboundIdentifierDeterminationRequest(parsed.value);
      if (!valid.ok) return invalid(valid.errors);
      const result = await determineIdentifier(deps, { integrator, request: valid.value, rawBody, trace, respondAsync: false });
      if (result.kind === 'answered') {
        status = 200;
        body = JSON.parse(result.response) as unknown;
      }
    } else {
      const valid = validateOutboundRequestToPay(parsed.value);
      if (!valid.ok) return invalid(valid.errors);
      await requestToPay(deps, { integrator, request: valid.value, rawBody, trace });
    }
    const made = await deps.store.findTransaction(integrator.id, message.uetr, message.kind);
    return answer(status, body, made?.id ?? null);
  } catch (error) {
    if (error instanceof ApiError) return answer(error.status, errorBody(error));
    throw error;
  }
}

/** The integrator's own institution as an agent (the examples are written as the demo integrator). */
function ownAgent(integrator: IntegratorConfig): Record<string, unknown> {
  const { bicfi, memberId } = integrator.institution;
  return { ...(bicfi === undefined ? {} : { bicfi }), ...(memberId === undefined ? {} : { clearingSystemMemberId: { memberId } }) };
}

/** A fresh request of the value's kind, from the document's examples, carrying the value and sent from the integrator's institution. */
function sampleMessage(input: SampleInput, scheme: SchemeName, integrator: IntegratorConfig, deps: SampleDeps): { kind: SampleInput['kind']; uetr: string; body: Record<string, unknown> } {
  const examples = buildExamples({ now: deps.clock.now(), uuid: randomUUID });
  const example = (name: string): Record<string, unknown> => structuredClone(examples[name]?.value) as Record<string, unknown>;
  const agent = ownAgent(integrator);
  switch (input.kind) {
    case 'CREDIT_TRANSFER': {
      const body = example(TRANSFER_EXAMPLES[scheme]);
      const ids = body['transactionIdentifiers'] as { uetr: string };
      body['paymentScheme'] = { ...(body['paymentScheme'] as object), schema: scheme };
      body['creditorAccount'] = { identification: { schema: 'GENERIC', value: input.creditorAccount } };
      body['debtorAgent'] = agent;
      if (scheme === 'ZA_RPP') body['paymentTypeInformation'] = { localInstrument: { schema: 'PROPRIETARY', value: 'PBA' } };
      return { kind: input.kind, uetr: ids.uetr, body };
    }
    case 'IDENTIFIER_DETERMINATION': {
      const body = example('IdentifierDeterminationMobile');
      const request = body['request'] as Record<string, unknown>;
      request['instructingAgent'] = agent;
      const { bicfi: _bicfi, memberId: _memberId, ...requestor } = request['requestor'] as Record<string, unknown>;
      request['requestor'] = { ...requestor, ...integrator.institution };
      const namespace = input.namespace ?? DEFAULT_NAMESPACES[input.schema];
      request['identifier'] = { schema: input.schema, ...(namespace === undefined ? {} : { namespace }), value: input.value };
      if (input.accountAgentBicfi !== undefined) request['accountAgent'] = { bicfi: input.accountAgentBicfi };
      return { kind: input.kind, uetr: request['uetr'] as string, body };
    }
    case 'REQUEST_TO_PAY': {
      const body = example('RequestToPayMobile');
      body['creditorAgent'] = agent;
      body['debtorAccount'] = { proxy: { namespace: 'ZA_MOBILE', schema: 'MOBILE', value: input.debtorMobile } };
      return { kind: input.kind, uetr: (body['transactionIdentifiers'] as { uetr: string }).uetr, body };
    }
  }
}

/** The namespace a proxy is looked up in when the directory lists it in every namespace. */
const DEFAULT_NAMESPACES: Readonly<Record<string, string>> = { MOBILE: 'ZA_MOBILE', CUSTOM: 'ZA_CUSTOM' };

/** The example each scheme's sample transfer starts from. */
const TRANSFER_EXAMPLES: Readonly<Record<SchemeName, string>> = {
  ZA_RTC: 'CreditTransferZaRtc',
  ZA_RPP: 'CreditTransferZaRppProxy',
  ZA_EFT: 'CreditTransferZaEft',
  ZA_AC: 'CreditTransferZaEft',
  ZA_RMS: 'CreditTransferZaEft',
  CBPR_PLUS: 'CreditTransferCbprPlus',
  TCIB: 'CreditTransferTcib',
};

function validateSampleRequest(body: unknown): Validated<{ testValueId: string; integratorId?: string }> {
  if (!isRecord(body)) return { ok: false, errors: [{ field: '', message: 'must be an object {"testValueId": "…", "integratorId"?: "…"}' }] };
  const errors: FieldError[] = [];
  for (const key of Object.keys(body)) {
    if (key !== 'testValueId' && key !== 'integratorId') errors.push({ field: `/${key}`, message: 'is not a known property' });
  }
  const text = (key: string, required: boolean): string | undefined => {
    const value = body[key];
    if (value === undefined && !required) return undefined;
    if (typeof value === 'string' && value.length > 0 && value.length <= ID_CHARS_MAX) return value;
    errors.push({ field: `/${key}`, message: `must be text of 1 to ${ID_CHARS_MAX} characters` });
    return undefined;
  };
  const testValueId = text('testValueId', true);
  const integratorId = text('integratorId', false);
  if (errors.length > 0 || testValueId === undefined) return { ok: false, errors };
  return { ok: true, value: { testValueId, ...(integratorId === undefined ? {} : { integratorId }) } };
}
