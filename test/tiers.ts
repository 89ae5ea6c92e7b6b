// The unit suite in two tiers. `npm test` (the README's command) runs the fast tier; `npm run test:slow` runs these
// stress, scale and cross-process files, each still asserting all it did. .ci/run runs both.
export const SLOW_TESTS = [
  'test/abi/vsix-abi.test.ts', // unpacks the .vsix under Node 22 and 24 from the registry
  'test/unit/labelQueues.test.ts', // label queues under concurrent writers
  'test/unit/omni-reference-run.test.ts', // the OmniBehavior reference driver over seeded benchmarks
  'test/unit/omni-cli-run.test.ts', // whole CLI runs against the scripted endpoint
  'test/unit/personamem-cli-run.test.ts', // PersonaMem CLI runs as processes against in-process endpoints
  'test/unit/index-cache.test.ts', // a paper-scale folder through the persistent index
  'test/unit/labels-crash.test.ts', // writers killed mid-transaction
  'test/unit/runner-faults.test.ts', // hostile endpoint replies, bounded in time
  'test/unit/skim.test.ts',
  'test/unit/omni-questions.test.ts',
  'test/unit/omni-crosscheck.test.ts',
  'test/unit/reference-crosscheck.test.ts',
  'test/unit/eval-report.test.ts',
  'test/unit/labelServerFault.test.ts', // a label server stopped and started under the client
  'test/unit/labelServerRealTls.test.ts', // its own PostgreSQL cluster with TLS on
  'test/unit/runner-hostile.test.ts', // trickled bodies and endless streams, bounded in time
  'test/unit/start-check-cjk.test.ts', // Chromium drawing Chinese with and without fonts
  'test/unit/cli-node20.test.ts', // the CLI relaunched from Node 20 onto the toolchain's Node
  'test/unit/cli-flush.test.ts', // a large export into a pipe read only later
];
