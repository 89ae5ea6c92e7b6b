// The option kinds of the commands' tables (spec.ts and the formats' own commands), for Node's util.parseArgs.
export const flag = { type: 'boolean' } as const;
export const text = { type: 'string' } as const;
export const many = { type: 'string', multiple: true } as const;
export const NO_CACHE = { 'no-cache': flag } as const;
