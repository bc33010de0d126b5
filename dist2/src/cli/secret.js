import { processIo, runSecretCommand } from './secret-commands.js';
/** Entry point of the secret tool: `npm run --silent secret -- webhook | password | hash | help` (secret-commands.ts). */
process.exitCode = await runSecretCommand(process.argv.slice(2), processIo());
//# sourceMappingURL=secret.js.map