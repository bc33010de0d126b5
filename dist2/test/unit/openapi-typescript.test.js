import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { openStore } from '../../src/adapters/store.js';
import { systemClock, systemIds } from '../../src/adapters/system/system.js';
import { configFromObject } from '../../src/config/load.js';
import { buildApp } from '../../src/http/app.js';
import { testConfigObject } from '../support/server.js';
/**
 * An integrator generates its client types from /openapi.json. The types openapi-typescript makes
 * of the served document must accept the messages the service documents, and refuse one that
 * lacks a required field: proof that the published schemas are the messages' shapes, not `any`.
 */
/** A fixture using the generated types: every credit-transfer example, a callback and an event, and two messages that must not compile. */
function fixture(document) {
    const examples = document.components.examples;
    const values = (prefix) => Object.entries(examples).filter(([name]) => name.startsWith(prefix)).map(([, example]) => example.value);
    const transfers = values('CreditTransfer');
    assert.ok(transfers.length >= 5, 'a credit-transfer example per scheme');
    return [
        "import type { components } from './regpay.js';",
        "type Schemas = components['schemas'];",
        `export const transfers: Schemas['CreditTransfer'][] = ${JSON.stringify(transfers, null, 2)};`,
        `export const reports: Schemas['PaymentStatusReport'][] = ${JSON.stringify(values('PaymentStatusReport'))};`,
        `export const events: Schemas['Event'][] = ${JSON.stringify(values('Event_PAYMENT_AUTH_'))};`,
        'const { debtorAgent: _debtorAgent, ...withoutDebtorAgent } = transfers[0]!;',
        '// @ts-expect-error debtorAgent is required',
        "export const incomplete: Schemas['CreditTransfer'] = withoutDebtorAgent;",
        '// @ts-expect-error an amount is a number, never text',
        "export const textAmount: Schemas['Amount'] = { currency: 'ZAR', value: '10.00' };",
        "export const amount: Schemas['Amount'] = transfers[0]!.amounts.bankSettlementAmount;",
        '',
    ].join('\n');
}
/** The compiler's complaints about the fixture, with the types generated from `document` beside it. */
async function typeCheck(document, directory) {
    writeFileSync(join(directory, 'regpay.ts'), astToString(await openapiTS(document)));
    const file = join(directory, 'fixture.ts');
    writeFileSync(file, fixture(document));
    const program = ts.createProgram([file], {
        strict: true,
        noUncheckedIndexedAccess: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        skipLibCheck: true,
        types: [],
    });
    return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}
void describe('TypeScript types generated from the OpenAPI document (openapi-typescript)', () => {
    let app;
    let document;
    const directories = [];
    const directory = () => {
        const made = mkdtempSync(join(tmpdir(), 'regpay-openapi-ts-'));
        directories.push(made);
        return made;
    };
    before(async () => {
        const config = await configFromObject(testConfigObject({ database: 'sqlite::memory:', auth: 'oauth2' }));
        const store = await openStore('sqlite::memory:');
        app = await buildApp({ config, store, clock: systemClock, ids: systemIds, readiness: { accepting: () => true } });
        app.addHook('onClose', () => store.close());
        document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    });
    after(async () => {
        await app?.close();
        for (const made of directories)
            rmSync(made, { recursive: true, force: true });
    });
    void it('accept every credit-transfer example, a callback and events, and refuse a transfer without a required field', async () => {
        assert.deepEqual(await typeCheck(document, directory()), []);
    });
    void it('fail when the published schema is wrong: a required field made optional lets the incomplete transfer through', async () => {
        const broken = structuredClone(document);
        broken.components.schemas.CreditTransfer.required = broken.components.schemas.CreditTransfer.required.filter((name) => name !== 'debtorAgent');
        const complaints = await typeCheck(broken, directory());
        assert.ok(complaints.some((complaint) => complaint.includes("Unused '@ts-expect-error' directive")), complaints.join('\n'));
    });
});
//# sourceMappingURL=openapi-typescript.test.js.map