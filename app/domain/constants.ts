/**
 * The values the data model allows, in one module that imports nothing: the database schema
 * declares its columns with them, the zod schemas validate input against them, and the UI lists
 * them in filters and selects. Pages import them from here, never from the schema, which would
 * ship drizzle and every table definition to the browser.
 */

export const PLANS = ['free', 'tier1', 'tier2', 'tier3'] as const
export const PLAN_KINDS = ['yearly', 'lifetime'] as const
export const PRIORITIES = ['high', 'medium', 'low'] as const
export const STATUSES = ['Not Started', 'In Progress', 'Completed'] as const
export const REACTION_TYPES = ['thumbsup', 'heart', 'check', 'fire'] as const
export const VERIFICATION_PURPOSES = ['verify-email', 'reset-password'] as const
/** How a session was signed in to, as /settings lists it (docs/decisions/040-two-factor-sign-in.md). */
export const SIGN_IN_METHODS = ['password', 'passkey', 'github', 'google'] as const
export const CHAT_VISIBILITIES = ['private', 'public'] as const
export const CHAT_ROLES = ['user', 'assistant', 'system'] as const
export const CHAT_STREAM_STATUSES = ['running', 'done', 'stopped', 'failed'] as const

export type PlanId = (typeof PLANS)[number]
export type PlanKind = (typeof PLAN_KINDS)[number]
export type Priority = (typeof PRIORITIES)[number]
export type Status = (typeof STATUSES)[number]
export type ReactionType = (typeof REACTION_TYPES)[number]
export type ChatVisibility = (typeof CHAT_VISIBILITIES)[number]

/**
 * A task's limits. The zod schemas (services/tasks/task-schemas.ts) are built from them and the task
 * forms hand them to the browser (components/task-form.tsx), so the two cannot disagree, and a
 * page learns them without shipping zod. The names are the HTML attributes they become.
 */
export const TASK_LIMITS = {
  text: { required: true, minLength: 3, maxLength: 200 },
  details: { maxLength: 500 },
  refLink: { maxLength: 2048 },
  hrs: { min: 1, max: 8, step: 1 },
  sharedWith: { maxItems: 50 },
} as const

/**
 * Search's limits (app/services/search.server.ts): what a person may type, and how many tasks and
 * comments one search returns at most (and by default).
 */
export const SEARCH_LIMITS = {
  query: { maxLength: 200 },
  results: { max: 50, default: 20 },
} as const

/** The longest name a passkey may be given in /settings (app/services/passkeys.server.ts). */
export const PASSKEY_NAME_MAX = 60
