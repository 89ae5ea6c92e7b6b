// The command line of the sample generators: `--flag value`, `--flag=value`, switches, and --help / -h.

/**
 * Reads `argv` against `spec` (flag → 'value' or 'switch'). --help / -h prints `usage` and exits 0; an unknown
 * argument or a value-taking flag without a value prints the message and `usage` and exits 2, as does `fail`, which
 * the caller uses for its own checks. A repeated flag keeps its last value.
 * @param {string[]} argv
 * @param {string} usage
 * @param {Record<string, 'value' | 'switch'>} spec
 * @returns {{ flags: Record<string, string | true>, fail: (message: string) => never }}
 */
export function parseFlags(argv, usage, spec) {
  const fail = (m) => {
    console.error(`${m}\n${usage}`);
    process.exit(2);
  };
  const flags = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s);
    const kind = Object.hasOwn(spec, flag) ? spec[flag] : undefined;
    if (kind === 'value') flags[flag] = inline ?? argv[++i] ?? fail(`${flag} needs a value`);
    else if (kind === 'switch') flags[flag] = true;
    else if (flag === '--help' || flag === '-h') {
      console.log(usage);
      process.exit(0);
    } else fail(`unknown argument ${argv[i]}`);
  }
  return { flags, fail };
}
