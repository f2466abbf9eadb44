import { createHash } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import * as apiAuth from '~/routes/api.auth'
import * as login from '~/routes/auth/login'
import * as logout from '~/routes/auth/logout'
import * as signup from '~/routes/auth/signup'
import * as forgotPassword from '~/routes/email.forgot-password'
import * as requestVerification from '~/routes/email.request-verification'
import * as resetPassword from '~/routes/email.reset-password'
import * as verifyEmail from '~/routes/email.verify-email'
import * as startOAuth from '~/routes/login.$provider'
import * as notFound from '~/routes/not-found'
import * as theme from '~/routes/resources.theme'
import * as settings from '~/routes/settings'
import * as support from '~/routes/support'
import * as task from '~/routes/task'
import * as taskActions from '~/routes/task-actions'
import * as taskComments from '~/routes/task-comments'

/**
 * Every route action of app/routes.ts that takes a browser's form (or, for /api/auth, a JSON
 * client's body), described well enough to post to it: the addresses it answers at, whether it
 * serves only signed-in people, whether it reads a form body, and the fields its forms send (so
 * generated bodies get past the first check and into the services). A test checks this table
 * against app/routes.ts, so an action added there without a row here fails the suite.
 */

type Action = (args: never) => unknown

export type FormActionRoute = {
  /** The route's module, as app/routes.ts names it. */
  file: string
  action: Action
  /** Addresses to post to, with the params React Router would give the action. */
  targets: { url: string; params: Record<string, string> }[]
  /** Signed-out visitors are sent to sign in and change nothing. */
  needsUser: boolean
  /** Whether the action reads a form body (so a body of another type is refused with 415). */
  readsForm: boolean
  /** Field names its forms send. */
  fields: string[]
}

const at = (url: string, params: Record<string, string> = {}) => ({ url, params })
const TASK_FIELDS = [
  'text',
  'details',
  'refLink',
  'priority',
  'status',
  'hrs',
  'isPublic',
  'parentTaskId',
  'sharedWith',
]

export const FORM_ACTIONS: FormActionRoute[] = [
  {
    file: 'routes/auth/login.tsx',
    action: login.action,
    targets: [at('/login'), at('/login?redirect=%2Ftask')],
    needsUser: false,
    readsForm: true,
    fields: ['email', 'password', 'redirect'],
  },
  {
    file: 'routes/auth/signup.tsx',
    action: signup.action,
    targets: [at('/signup')],
    needsUser: false,
    readsForm: true,
    fields: ['name', 'email', 'password', 'redirect'],
  },
  {
    file: 'routes/auth/logout.ts',
    action: logout.action,
    targets: [at('/logout')],
    needsUser: false,
    readsForm: false,
    fields: [],
  },
  {
    file: 'routes/settings.tsx',
    action: settings.action,
    targets: [at('/settings')],
    needsUser: true,
    readsForm: true,
    fields: [
      'intent',
      'name',
      'image',
      'currentPassword',
      'newPassword',
      'confirmPassword',
      'sessionId',
      'password',
      'confirmation',
    ],
  },
  {
    file: 'routes/login.$provider.ts',
    action: startOAuth.action,
    targets: [
      at('/login/github', { provider: 'github' }),
      at('/login/google', { provider: 'google' }),
      at('/login/myspace', { provider: 'myspace' }),
    ],
    needsUser: false,
    readsForm: true,
    fields: ['redirect'],
  },
  {
    file: 'routes/task.tsx',
    action: task.action,
    targets: [at('/task')],
    needsUser: true,
    readsForm: true,
    fields: TASK_FIELDS,
  },
  {
    file: 'routes/task-actions.tsx',
    action: taskActions.action,
    targets: [at('/task/actions')],
    needsUser: true,
    readsForm: true,
    fields: ['intent', 'taskId', 'redirectTo', ...TASK_FIELDS],
  },
  {
    file: 'routes/task-comments.tsx',
    action: taskComments.action,
    targets: [at('/task/comments')],
    needsUser: true,
    readsForm: true,
    fields: [
      'intent',
      'taskId',
      'commentId',
      'content',
      'mentions',
      'parentCommentId',
      'reactionType',
      'redirectTo',
    ],
  },
  {
    file: 'routes/email.verify-email.tsx',
    action: verifyEmail.action,
    targets: [at('/email/verify-email')],
    needsUser: false,
    readsForm: true,
    fields: ['token'],
  },
  {
    file: 'routes/email.request-verification.tsx',
    action: requestVerification.action,
    targets: [at('/email/request-verification')],
    needsUser: true,
    readsForm: true,
    fields: ['redirectTo'],
  },
  {
    file: 'routes/email.forgot-password.tsx',
    action: forgotPassword.action,
    targets: [at('/email/forgot-password')],
    needsUser: false,
    readsForm: true,
    fields: ['email'],
  },
  {
    file: 'routes/email.reset-password.tsx',
    action: resetPassword.action,
    targets: [at('/email/reset-password')],
    needsUser: false,
    readsForm: true,
    fields: ['token', 'password', 'confirmPassword'],
  },
  {
    file: 'routes/support.tsx',
    action: support.action,
    targets: [at('/support')],
    needsUser: false,
    readsForm: true,
    fields: ['name', 'email', 'message'],
  },
  {
    file: 'routes/resources.theme.ts',
    action: theme.action,
    targets: [at('/resources/theme')],
    needsUser: false,
    readsForm: true,
    fields: ['theme', 'redirectTo'],
  },
  {
    file: 'routes/api.auth.ts',
    action: apiAuth.action,
    targets: [
      'sign-up/email',
      'sign-in/email',
      'sign-in/social',
      'sign-out',
      'update-user',
      'delete-user',
      'revoke-sessions',
      'revoke-other-sessions',
      'send-verification-email',
      'request-password-reset',
      'reset-password',
      'get-session',
      'no-such-endpoint',
    ].map((endpoint) => at(`/api/auth/${endpoint}`, { '*': endpoint })),
    needsUser: false,
    readsForm: false,
    fields: [
      'email',
      'password',
      'name',
      'image',
      'callbackURL',
      'provider',
      'newPassword',
      'token',
      'redirectTo',
      'rememberMe',
      'confirmation',
    ],
  },
  {
    file: 'routes/not-found.tsx',
    action: notFound.action,
    targets: [at('/no/such/page', { '*': 'no/such/page' })],
    needsUser: false,
    readsForm: false,
    fields: [],
  },
]

/** Route files with an action that is not a form door, and where it is tested instead. */
export const OTHER_ACTIONS: Record<string, string> = {
  'routes/api.rpc.ts': 'the RPC door: its procedures have a fuzz suite of their own',
}

/**
 * A fingerprint of every table a request could change, one hash per table, so a failure names
 * the table. Left out, on purpose: `rate_limits`, because a refused attempt still counts against
 * its limit (that is what limits are for), and a session's `last_seen_at` and `expires_at`,
 * which reading a session refreshes.
 */
export async function tableFingerprints(db: Database): Promise<Record<string, string>> {
  const tables = await db.all<{ name: string }>(
    sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' AND name <> 'rate_limits' ORDER BY name`,
  )
  const fingerprints: Record<string, string> = {}
  for (const { name } of tables) {
    const rows =
      name === 'sessions'
        ? await db.all(sql`SELECT id, user_id FROM sessions ORDER BY id`)
        : await db.all(sql.raw(`SELECT * FROM "${name}" ORDER BY rowid`))
    fingerprints[name] = createHash('sha256').update(JSON.stringify(rows)).digest('base64url')
  }
  return fingerprints
}
