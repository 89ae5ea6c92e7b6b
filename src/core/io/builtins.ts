// Node's modules that only some jobs use, loaded when first used instead of when the bundle loads. Every CLI command
// loads the whole bundle, and each of these costs a process memory whether it runs or not: node:crypto with OpenSSL
// about 3.4 MiB resident, node:zlib 2.3 MiB, node:http, node:net and node:child_process about 3 MiB more, while a
// cold `score` uses none of them (test/unit/cli-start.test.ts checks that it loads none). process.getBuiltinModule
// (Node 22.3) returns the module Node keeps once loaded.
export const crypto = () => process.getBuiltinModule('node:crypto');
export const zlib = () => process.getBuiltinModule('node:zlib');
export const http = () => process.getBuiltinModule('node:http');
export const net = () => process.getBuiltinModule('node:net');
export const childProcess = () => process.getBuiltinModule('node:child_process');
