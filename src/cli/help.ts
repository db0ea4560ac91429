import { OPTIONS_HELP } from '../../reference-impl/src/options-help.js';
import { DATA_KEYS, OPTIONS } from '../config/options.js';

export const MAIN_HELP = `storefront-conformance: conformance suite and contract verifier for the storefront APIs

Usage: storefront-conformance <command> [options]

Commands:
  run          run the suites against a target; write the reports; exit code = verdict
  self-test    start the reference implementation on a free port and run every interface against it
  reference    start the reference implementation (--port, --host, --db, --vendor, --hash-cost, --fault, --single-session)
  report       build the HTML report of a report directory with Allure 3
  pact         generate Pact files from the specs, or verify a provider against them

Run "storefront-conformance <command> --help" for the options of a command.

Exit codes of run and self-test:
  0  conformant (no MUST failed, every MUST exercised)
  1  non-conformant, or incomplete (a MUST could not be exercised; --allow-incomplete makes that 0)
  2  bad usage or settings (nothing was sent)
  3  the target could not be reached at all, the run was aborted (the reason is printed), or the suite
     itself failed (an internal error)
`;

export function commandHelp(command: 'run' | 'self-test'): string {
  const intro =
    command === 'run'
      ? 'storefront-conformance run: run the conformance suites against a target\n\nUsage: storefront-conformance run [options]\n'
      : 'storefront-conformance self-test: start the reference implementation on a free port with a fresh\ndatabase, run every interface against it, and expect a conformant verdict\n\nUsage: storefront-conformance self-test [options]\n';
  const rows = OPTIONS.filter((o) => o.commands.includes(command)).map((o) => {
    const flag = `--${o.flag}${o.kind === 'bool' ? '' : ` ${o.kind === 'int' ? 'N' : o.kind === 'list' ? 'LIST' : o.kind === 'url' ? 'URL' : o.kind === 'path' ? 'FILE' : 'VALUE'}`}`;
    const def = o.default !== undefined ? ` (default ${o.default})` : '';
    return `  ${flag.padEnd(26)} ${o.help}${def}\n  ${''.padEnd(26)} environment: ${o.env}`;
  });
  const data =
    command === 'run'
      ? `\nTarget data (environment or .env only; see .env.example). Empty: the checks needing it are skipped\n(listed as skipped); where a MUST is left unexercised, the verdict becomes incomplete:\n${DATA_KEYS.map((d) => `  ${d.key.padEnd(26)} ${d.help}`).join('\n')}\n`
      : '';
  return `${intro}\nOptions (a flag wins over the environment, the environment over .env):\n${rows.join('\n')}\n  -h, --help                 this text\n${data}`;
}

export const REFERENCE_HELP = `storefront-conformance reference: start the reference implementation of all four interfaces

Usage: storefront-conformance reference [options]

${OPTIONS_HELP}`;
