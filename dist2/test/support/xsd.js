import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validateXML } from 'xmllint-wasm';
/**
 * Test helpers for checking documents against the ISO 20022 XSDs kept in shared/iso20022/xsd,
 * beside the repository (as in CI). xmllint-wasm is an npm devDependency, so no system tool is needed.
 */
export const XSD_DIR = fileURLToPath(new URL('../../../../shared/iso20022/xsd/', import.meta.url));
/** The `skip` option of a suite that needs the XSDs: run when they are there, skipped saying where they were looked for when not. */
export const XSD_SKIP = existsSync(XSD_DIR) ? false : `no XSDs at ${XSD_DIR}`;
/** Asserts that every one of `documents` is valid against the XSD of `messageName` (e.g. pacs.008.001.08). */
export async function assertValid(messageName, documents) {
    const schema = readFileSync(`${XSD_DIR}${messageName}.xsd`, 'utf8');
    const result = await validateXML({
        xml: documents.map((contents, index) => ({ fileName: `${messageName}-${index}.xml`, contents })),
        schema: [{ fileName: `${messageName}.xsd`, contents: schema }],
    });
    assert.ok(result.valid, `${messageName}: ${result.errors.map((error) => error.rawMessage).join('\n')}`);
}
//# sourceMappingURL=xsd.js.map