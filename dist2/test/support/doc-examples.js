import { spawnSync } from 'node:child_process';
const THEN = /^then: ([a-z/-]+)(?: ([A-Z0-9_]+))?(?:, (\d+) in all)?$/;
export function docExamples(markdown) {
    const examples = [];
    const unmarkedCurlLines = [];
    const lines = markdown.split('\n');
    for (let i = 0; i < lines.length; i += 1) {
        if (lines[i]?.trim() !== '```sh')
            continue;
        const start = i + 1;
        const body = [];
        for (i += 1; i < lines.length && lines[i]?.trim() !== '```'; i += 1)
            body.push(lines[i] ?? '');
        const markers = body.filter((line) => line.startsWith('# ')).map((line) => line.slice(2));
        const expect = markers.find((marker) => marker.startsWith('expect: '));
        const run = markers.includes('run');
        if (expect === undefined && !run) {
            if (body.some((line) => line.includes('curl ')))
                unmarkedCurlLines.push(start);
            continue;
        }
        const uetr = /"uetr": "([0-9a-f-]{36})"/.exec(body.join('\n'))?.[1];
        examples.push({
            line: start,
            script: body.join('\n'),
            kind: expect === undefined ? 'run' : 'expect',
            ...(expect === undefined ? {} : { status: Number(expect.slice('expect: '.length).trim()) }),
            answerContains: markers.filter((marker) => marker.startsWith('expect in answer: ')).map((marker) => marker.slice('expect in answer: '.length)),
            then: markers
                .filter((marker) => marker.startsWith('then: '))
                .map((marker) => {
                const match = THEN.exec(marker);
                if (match === null)
                    throw new Error(`line ${start}: "# ${marker}" is not "# then: <path> [<TEXT>][, <n> in all]"`);
                return { pathSuffix: match[1] ?? '', ...(match[2] === undefined ? {} : { text: match[2] }), count: Number(match[3] ?? '1') };
            }),
            ...(uetr === undefined ? {} : { uetr }),
            demoOnly: markers.includes('demo only'),
        });
    }
    return { examples, unmarkedCurlLines };
}
/**
 * One bash script running every example in order in one shell, as a reader pasting them one after
 * the other would; each block's output (stdout and stderr) is framed by markers carrying its index
 * and exit code. `set -u` makes an example that reads an unset variable fail instead of sending
 * an empty credential.
 */
export function examplesScript(prelude, examples) {
    const parts = ['set -u', prelude];
    examples.forEach((example, index) => {
        parts.push(`printf '\\n@@example ${index} start@@\\n'`, `{\n${example.script}\n} 2>&1`, `printf '\\n@@example ${index} exit %s@@\\n' "$?"`);
    });
    return `${parts.join('\n')}\n`;
}
/** Each example's output and exit code from the script's output. */
export function examplesOutput(output, count) {
    return Array.from({ length: count }, (_, index) => {
        const start = output.indexOf(`@@example ${index} start@@\n`);
        const exit = new RegExp(`\\n@@example ${index} exit (\\d+)@@`).exec(output);
        if (start < 0 || exit === null)
            return { text: start < 0 ? '' : output.slice(start), exitCode: undefined };
        return { text: output.slice(start + `@@example ${index} start@@\n`.length, exit.index), exitCode: Number(exit[1]) };
    });
}
/** The final HTTP status `curl -i` printed (an interim `100 Continue` is skipped). */
export function finalStatus(curlOutput) {
    const statuses = [...curlOutput.matchAll(/^HTTP\/[0-9.]+ (\d{3})/gm)].map((match) => Number(match[1])).filter((status) => status >= 200);
    return statuses[statuses.length - 1];
}
/**
 * curl must be there: the examples are curl commands, and a test that skipped without it would
 * pass while proving nothing. Throws, naming what is missing.
 */
export function requireCurl() {
    const probe = spawnSync('curl', ['--version'], { encoding: 'utf8' });
    if (probe.error !== undefined || probe.status !== 0) {
        throw new Error(`curl is required to run the examples of docs/api.md and was not found or failed (${probe.error?.message ?? `exit ${String(probe.status)}`}); install curl (Debian: apt-get install curl)`);
    }
}
/** The first uetr in an example's printed answer (compact JSON), for a `# then:` of a block that names none. */
export function answerUetr(output) {
    return /"uetr":"([0-9a-f-]{36})"/.exec(output)?.[1];
}
//# sourceMappingURL=doc-examples.js.map