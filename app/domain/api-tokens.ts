/**
 * Personal API tokens (app/services/api-tokens.server.ts): what a token may do, how long it may
 * live (days; `none` never expires), and how many one person may hold.
 */
export const API_TOKEN_SCOPES = ['read', 'read-write'] as const
export const API_TOKEN_EXPIRIES = ['30', '90', '365', 'none'] as const
export const API_TOKEN_LIMITS = { name: { maxLength: 60 }, perPerson: 20 } as const
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number]
