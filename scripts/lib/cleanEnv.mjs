// The environment for an npm (or a script that runs one) started from inside an npm script: without the outer npm's
// npm_* variables, which an inner npm would read as its own config (npm_config_user_agent names the outer npm's Node,
// and code-server's postinstall refuses to install when that is not the Node it runs on). The registry's connection
// settings are kept: a user may have set them in the environment on purpose.
const KEEP = new Set([
  'npm_config_registry',
  'npm_config_proxy',
  'npm_config_https_proxy',
  'npm_config_cafile',
  'npm_config_strict_ssl',
]);

/**
 * @param {NodeJS.ProcessEnv} env
 * @returns {NodeJS.ProcessEnv}
 */
export function withoutOuterNpm(env = process.env) {
  const out = {};
  for (const [name, value] of Object.entries(env)) {
    const lower = name.toLowerCase();
    if (lower.startsWith('npm_') && !KEEP.has(lower)) continue;
    out[name] = value;
  }
  return out;
}
