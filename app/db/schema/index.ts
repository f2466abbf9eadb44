/**
 * The whole data model (summed up in docs/architecture.md), one file per area, and this index
 * the one map of it: drizzle-kit reads it to write migrations (drizzle.config.ts), and the app
 * imports every table from `~/db/schema`. Ids are random strings, times are integer
 * milliseconds, money is integer cents (the shared columns are in ./columns.ts).
 */
export * from './accounts'
export * from './admin'
export * from './api-tokens'
export * from './chats'
export * from './comments'
export * from './events'
export * from './infrastructure'
export * from './passkeys'
export * from './payments'
export * from './tasks'
export * from './two-factor'
export * from './webhooks'
export * from './workspaces'
