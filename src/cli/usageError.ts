// A usage error: main.ts prints it with the command's help and exits 2.
export class UsageError extends Error {}
