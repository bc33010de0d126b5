/**
 * `npm run operator -- --config operator.yaml`: the standalone scheme operator simulator
 * (docs/operator-link.md). Prints one line `regpay operator simulator listening on https://...`
 * once it listens; SIGTERM or SIGINT stops it, keeping whatever is pending in its store.
 */
import { pino } from 'pino';
import { configArgument, loadOperatorConfig } from './config.js';
import { OperatorSimulator } from './operator.js';
async function main() {
    const path = configArgument(process.argv.slice(2));
    if (path === undefined || path === '') {
        process.stderr.write('usage: npm run operator -- --config <operator.yaml> (docs/operator-link.md)\n');
        process.exit(2);
    }
    const config = loadOperatorConfig(path);
    const log = pino({ level: config.logLevel, base: { component: 'operator-simulator' } });
    const operator = await OperatorSimulator.start(config, log);
    const control = operator.controlPort === undefined ? '' : `; control http://${config.control?.host ?? ''}:${operator.controlPort}`;
    process.stdout.write(`regpay operator simulator listening on https://${config.listen.host}:${operator.port} (schemes ${[...config.schemes.keys()].join(', ')}; store ${config.store}${control})\n`);
    let stopping = false;
    const shutdown = (signal) => {
        if (stopping)
            return;
        stopping = true;
        log.info({ signal }, 'operator simulator stopping; pending answers stay in its store');
        operator.stop().then(() => process.exit(0), (error) => {
            log.error({ err: error }, 'operator simulator: stopping failed');
            process.exit(1);
        });
    };
    process.once('SIGTERM', () => shutdown('SIGTERM'));
    process.once('SIGINT', () => shutdown('SIGINT'));
}
main().catch((error) => {
    process.stderr.write(`regpay operator simulator failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
});
//# sourceMappingURL=main.js.map