import { createHash } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import * as apiAuth from '~/routes/api/auth'
import * as login from '~/routes/auth/login'
import * as startOAuth from '~/routes/auth/login-provider'
import * as loginTwoFactor from '~/routes/auth/login-two-factor'
import * as logout from '~/routes/auth/logout'
import * as signup from '~/routes/auth/signup'
import * as chat from '~/routes/chat/index'
import * as forgotPassword from '~/routes/email/forgot-password'
import * as requestVerification from '~/routes/email/request-verification'
import * as resetPassword from '~/routes/email/reset-password'
import * as verifyEmail from '~/routes/email/verify-email'
import * as invitation from '~/routes/invitations/invitation'
import * as notFound from '~/routes/not-found'
import * as notifications from '~/routes/notifications'
import * as onboarding from '~/routes/onboarding'
import * as checkout from '~/routes/payment/checkout'
import * as theme from '~/routes/resources/theme'
import * as savedChat from '~/routes/saved-chats/chat'
import * as savedChats from '~/routes/saved-chats/index'
import * as billing from '~/routes/settings/billing'
import * as developer from '~/routes/settings/developer/index'
import * as webhookDeliveries from '~/routes/settings/developer/webhook-deliveries'
import * as settings from '~/routes/settings/index'
import * as settingsTwoFactor from '~/routes/settings/two-factor'
import * as support from '~/routes/support'
import * as taskActions from '~/routes/tasks/actions'
import * as taskComments from '~/routes/tasks/comments'
import * as task from '~/routes/tasks/index'
import * as workspaces from '~/routes/workspaces/index'
import * as workspaceMembers from '~/routes/workspaces/members'
import * as workspaceSettings from '~/routes/workspaces/settings'
import * as workspaceSwitch from '~/routes/workspaces/switch'
import type { TaskInput } from '~/services/tasks/task-schemas'
import { TEST_PASSWORD } from './factories'

/**
 * Every route action of app/routes.ts that takes a browser's form (or, for /api/auth, a JSON
 * client's body), described well enough to post to it: the addresses it answers at, whether it
 * serves only signed-in people, what body it reads, and whole bodies its clients send (so
 * generated ones get past the first check and into the services). A test checks this table
 * against app/routes.ts, so an action added there without a row here fails the suite.
 */

type Action = (args: never) => unknown

/** A body a real client sends. `$…` values stand for rows a test creates (see the fuzz suite). */
export type Example = Record<string, string | string[] | boolean | null>

export type FormActionRoute = {
  /** The route's module, as app/routes.ts names it. */
  file: string
  action: Action
  /** Addresses to post to, with the params React Router would give the action. */
  targets: { url: string; params: Record<string, string> }[]
  /** Signed-out visitors are sent to sign in and change nothing. */
  needsUser: boolean
  /** What the action reads: a form, JSON (the better-auth API), or no body at all. */
  reads: 'form' | 'json' | 'nothing'
  /** Field names its clients send. */
  fields: string[]
  /** Whole, valid bodies, so generated ones can start from something that gets through. */
  examples: Example[]
}

const at = (url: string, params: Record<string, string> = {}) => ({ url, params })
const fieldsOf = (examples: Example[]) => [...new Set(examples.flatMap((example) => Object.keys(example)))]
const NEW_PASSWORD = 'a brand new password'

/** The task form with every field of `TaskFieldsSchema` filled in: a field added there fails `tsc` here until it has a value. */
const TASK_EXAMPLE = {
  text: 'A task',
  details: 'Some details',
  refLink: 'https://example.test/ref',
  priority: 'high',
  status: 'In Progress',
  hrs: '2',
  dueDate: '2030-01-31',
  isPublic: 'on',
  parentTaskId: '$ownTask',
  assigneeId: '$ownId',
  sharedWith: '$othersEmail, someone@example.test',
  // Their personal workspace has their account's id.
  workspaceId: '$ownId',
} satisfies Record<keyof TaskInput, Example[string]>

const API_AUTH_ENDPOINTS = [
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
  'two-factor/enable',
  'two-factor/verify-totp',
  'two-factor/verify-backup-code',
  'two-factor/disable',
  'two-factor/get-totp-uri',
  'two-factor/generate-backup-codes',
  'no-such-endpoint',
]

function route(definition: Omit<FormActionRoute, 'fields'>): FormActionRoute {
  return { ...definition, fields: fieldsOf(definition.examples) }
}

export const FORM_ACTIONS: FormActionRoute[] = [
  route({
    file: 'routes/auth/login.tsx',
    action: login.action,
    targets: [at('/login'), at('/login?redirect=%2Ftask')],
    needsUser: false,
    reads: 'form',
    examples: [{ email: '$ownEmail', password: TEST_PASSWORD, redirect: '/task?task=1' }],
  }),
  route({
    file: 'routes/auth/signup.tsx',
    action: signup.action,
    targets: [at('/signup')],
    needsUser: false,
    reads: 'form',
    examples: [{ name: 'New Person', email: '$newEmail', password: NEW_PASSWORD, redirect: '/settings' }],
  }),
  route({
    file: 'routes/auth/login-two-factor.tsx',
    action: loginTwoFactor.action,
    targets: [at('/login/two-factor')],
    needsUser: false,
    reads: 'form',
    examples: [
      { intent: 'totp', code: '123456' },
      { intent: 'recovery', code: 'abcde-12345' },
    ],
  }),
  route({
    file: 'routes/settings/two-factor.tsx',
    action: settingsTwoFactor.action,
    targets: [at('/settings/two-factor')],
    needsUser: true,
    reads: 'form',
    examples: [
      { intent: 'begin', password: TEST_PASSWORD },
      { intent: 'confirm', code: '123456' },
      { intent: 'regenerate', password: TEST_PASSWORD },
      { intent: 'turn-off', password: 'wrong', code: '123456' },
    ],
  }),
  route({
    file: 'routes/auth/logout.ts',
    action: logout.action,
    targets: [at('/logout')],
    needsUser: false,
    reads: 'nothing',
    examples: [{}],
  }),
  route({
    file: 'routes/notifications.tsx',
    action: notifications.action,
    targets: [at('/notifications')],
    needsUser: true,
    reads: 'form',
    examples: [
      { intent: 'mark-read', notificationId: 'no-such-notification' },
      { intent: 'mark-all-read', upTo: '2026-01-01T00:00:00.000Z' },
    ],
  }),
  route({
    file: 'routes/chat/index.tsx',
    action: chat.action,
    targets: [at('/chat'), at('/chat/fuzz-chat', { chatId: 'fuzz-chat' })],
    needsUser: true,
    reads: 'form',
    examples: [
      { intent: 'send', chatId: 'fuzz-chat', text: 'How many tasks do I have?' },
      { intent: 'regenerate', chatId: 'fuzz-chat' },
      { intent: 'approve', chatId: 'fuzz-chat', approvalId: 'no-such-approval', approved: 'true' },
      { intent: 'stop', chatId: 'fuzz-chat' },
    ],
  }),
  route({
    file: 'routes/saved-chats/index.tsx',
    action: savedChats.action,
    targets: [at('/saved-chats')],
    needsUser: true,
    reads: 'form',
    examples: [
      { intent: 'rename', chatId: 'no-such-chat', title: 'A new title' },
      { intent: 'delete', chatId: 'no-such-chat' },
    ],
  }),
  route({
    file: 'routes/saved-chats/chat.tsx',
    action: savedChat.action,
    targets: [at('/saved-chats/no-such-chat', { chatId: 'no-such-chat' })],
    needsUser: true,
    reads: 'form',
    examples: [{ intent: 'share', visibility: 'public', emails: '$othersEmail' }],
  }),
  route({
    file: 'routes/onboarding.tsx',
    action: onboarding.action,
    targets: [at('/onboarding'), at('/onboarding?step=share')],
    needsUser: true,
    reads: 'form',
    examples: [
      { intent: 'profile', name: 'A New Name', image: 'https://example.test/me.png' },
      { intent: 'task', text: 'My first task', priority: 'high' },
      { intent: 'share', taskId: '$ownTask', sharedWith: '$othersEmail', isPublic: 'on' },
      { intent: 'share', taskId: '$othersTask', isPublic: 'on' },
      { intent: 'skip', step: 'share' },
      { intent: 'finish' },
    ],
  }),
  route({
    file: 'routes/settings/index.tsx',
    action: settings.action,
    targets: [at('/settings')],
    needsUser: true,
    reads: 'form',
    examples: [
      { intent: 'update-profile', name: 'A New Name', image: 'https://example.test/me.png' },
      {
        intent: 'change-password',
        currentPassword: TEST_PASSWORD,
        newPassword: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      },
      { intent: 'revoke-session', sessionId: '$othersSession' },
      { intent: 'revoke-session', sessionId: '$ownSession' },
      { intent: 'revoke-other-sessions' },
      { intent: 'revoke-all-sessions' },
      { intent: 'delete-account', password: TEST_PASSWORD, confirmation: 'delete my account' },
      { intent: 'rename-passkey', passkeyId: 'no-such-passkey', name: 'My laptop' },
      { intent: 'remove-passkey', passkeyId: 'no-such-passkey' },
    ],
  }),
  route({
    file: 'routes/settings/developer/index.tsx',
    action: developer.action,
    targets: [at('/settings/developer')],
    needsUser: true,
    reads: 'form',
    examples: [
      { intent: 'create-token', name: 'CI', scope: 'read', expiry: '30' },
      { intent: 'revoke-token', tokenId: 'no-such-token' },
      { intent: 'add-webhook', url: 'https://hooks.example.test/in', events: 'task.created' },
      { intent: 'test-webhook', endpointId: 'no-such-endpoint' },
      { intent: 'pause-webhook', endpointId: 'no-such-endpoint' },
      { intent: 'delete-webhook', endpointId: 'no-such-endpoint' },
    ],
  }),
  route({
    file: 'routes/settings/developer/webhook-deliveries.tsx',
    action: webhookDeliveries.action,
    targets: [at('/settings/developer/webhooks/nope', { endpointId: 'nope' })],
    needsUser: true,
    reads: 'form',
    examples: [
      { intent: 'redeliver-webhook', endpointId: 'nope', deliveryId: 'nope' },
      { intent: 'resume-webhook', endpointId: 'nope' },
    ],
  }),
  route({
    file: 'routes/auth/login-provider.ts',
    action: startOAuth.action,
    targets: [
      at('/login/github', { provider: 'github' }),
      at('/login/google', { provider: 'google' }),
      at('/login/myspace', { provider: 'myspace' }),
    ],
    needsUser: false,
    reads: 'form',
    examples: [{ redirect: '/task' }],
  }),
  route({
    file: 'routes/tasks/index.tsx',
    action: task.action,
    targets: [at('/task')],
    needsUser: true,
    reads: 'form',
    examples: [TASK_EXAMPLE, { text: 'Just a title' }],
  }),
  route({
    file: 'routes/tasks/actions.tsx',
    action: taskActions.action,
    targets: [at('/task/actions')],
    needsUser: true,
    reads: 'form',
    examples: [
      {
        intent: 'update',
        taskId: '$ownTask',
        ...TASK_EXAMPLE,
        parentTaskId: '',
        redirectTo: '/task?task=1&view=edit',
      },
      { intent: 'set-status', taskId: '$ownTask', status: 'Completed', redirectTo: '/dashboard' },
      { intent: 'share', taskId: '$ownTask', sharedWith: '$othersEmail' },
      { intent: 'set-public', taskId: '$othersTask', isPublic: 'true' },
      { intent: 'delete', taskId: '$ownTask', redirectTo: '/task?task=1' },
    ],
  }),
  route({
    file: 'routes/tasks/comments.tsx',
    action: taskComments.action,
    targets: [at('/task/comments')],
    needsUser: true,
    reads: 'form',
    examples: [
      {
        intent: 'add',
        taskId: '$ownTask',
        content: 'Hello @Someone',
        mentions: ['$othersEmail', '$ownEmail'],
        parentCommentId: '$ownComment',
        redirectTo: '/task?task=1&view=reply',
      },
      { intent: 'edit', commentId: '$ownComment', content: 'Edited' },
      { intent: 'delete', commentId: '$othersComment' },
      { intent: 'react', commentId: '$ownComment', reactionType: 'heart' },
    ],
  }),
  route({
    file: 'routes/workspaces/index.tsx',
    action: workspaces.action,
    targets: [at('/workspaces')],
    needsUser: true,
    reads: 'form',
    examples: [{ name: 'A new team', slug: 'a-new-team' }],
  }),
  route({
    file: 'routes/workspaces/settings.tsx',
    action: workspaceSettings.action,
    // Nobody's workspace: every change answers 404; the service tests hold the changes themselves.
    targets: [at('/workspaces/no-such-workspace/settings', { slug: 'no-such-workspace' })],
    needsUser: true,
    reads: 'form',
    examples: [
      { intent: 'rename', name: 'Renamed', slug: 'renamed-team' },
      { intent: 'leave' },
      { intent: 'transfer', toUserId: '$ownId' },
      { intent: 'delete', confirmName: 'Personal' },
    ],
  }),
  route({
    file: 'routes/workspaces/switch.tsx',
    action: workspaceSwitch.action,
    targets: [at('/workspaces/switch')],
    needsUser: true,
    reads: 'form',
    // Their personal workspace has their account's id.
    examples: [{ workspaceId: '$ownId', redirectTo: '/task' }],
  }),
  route({
    file: 'routes/workspaces/members.tsx',
    action: workspaceMembers.action,
    // A workspace nobody is in: every form answers 404 before it changes anything.
    targets: [at('/workspaces/no-such-workspace/members', { slug: 'no-such-workspace' })],
    needsUser: true,
    reads: 'form',
    examples: [
      { intent: 'invite', email: '$newEmail', role: 'member' },
      { intent: 'change-role', userId: '$ownId', role: 'admin' },
      { intent: 'remove-member', userId: '$ownId' },
      { intent: 'revoke-invitation', invitationId: 'no-such-invitation' },
      { intent: 'resend-invitation', invitationId: 'no-such-invitation' },
    ],
  }),
  route({
    file: 'routes/invitations/invitation.tsx',
    action: invitation.action,
    targets: [at('/invitations/no-such-invitation', { invitationId: 'no-such-invitation' })],
    needsUser: true,
    reads: 'form',
    examples: [{ intent: 'accept' }, { intent: 'decline' }],
  }),
  route({
    file: 'routes/email/verify-email.tsx',
    action: verifyEmail.action,
    targets: [at('/email/verify-email')],
    needsUser: false,
    reads: 'form',
    examples: [{ token: 'not-a-real-token' }],
  }),
  route({
    file: 'routes/email/request-verification.tsx',
    action: requestVerification.action,
    targets: [at('/email/request-verification')],
    needsUser: true,
    reads: 'form',
    examples: [{ redirectTo: '/dashboard' }],
  }),
  route({
    file: 'routes/email/forgot-password.tsx',
    action: forgotPassword.action,
    targets: [at('/email/forgot-password')],
    needsUser: false,
    reads: 'form',
    examples: [{ email: '$ownEmail' }, { email: 'nobody@example.test' }],
  }),
  route({
    file: 'routes/email/reset-password.tsx',
    action: resetPassword.action,
    targets: [at('/email/reset-password')],
    needsUser: false,
    reads: 'form',
    examples: [{ token: 'not-a-real-token', password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }],
  }),
  route({
    file: 'routes/support.tsx',
    action: support.action,
    targets: [at('/support')],
    needsUser: false,
    reads: 'form',
    examples: [{ name: 'Ada', email: 'ada@example.test', message: 'A question long enough to send.' }],
  }),
  route({
    file: 'routes/payment/checkout.tsx',
    action: checkout.action,
    targets: [at('/payment/checkout')],
    needsUser: false,
    reads: 'form',
    examples: [
      { tier: '2', plan: 'lifetime' },
      { tier: '1', plan: 'yearly' },
    ],
  }),
  route({
    file: 'routes/settings/billing.tsx',
    action: billing.action,
    targets: [at('/settings/billing')],
    needsUser: true,
    reads: 'form',
    examples: [
      { intent: 'portal' },
      { intent: 'github-login', githubLogin: 'octocat', redirectTo: '/payment/success' },
    ],
  }),
  route({
    file: 'routes/resources/theme.ts',
    action: theme.action,
    targets: [at('/resources/theme')],
    needsUser: false,
    reads: 'form',
    examples: [{ theme: 'dark', redirectTo: '/docs' }, { theme: 'light' }],
  }),
  route({
    file: 'routes/api/auth.ts',
    action: apiAuth.action,
    targets: API_AUTH_ENDPOINTS.map((endpoint) => at(`/api/auth/${endpoint}`, { '*': endpoint })),
    needsUser: false,
    reads: 'json',
    examples: [
      { email: '$ownEmail', password: TEST_PASSWORD, callbackURL: '/task', rememberMe: true },
      { name: 'New Person', email: '$newEmail', password: NEW_PASSWORD, callbackURL: '/settings' },
      { provider: 'github', callbackURL: '/task' },
      { name: 'A New Name', image: null },
      { password: TEST_PASSWORD, confirmation: 'delete my account', callbackURL: '/' },
      { email: '$ownEmail', redirectTo: '/email/reset-password' },
      { code: '123456', trustDevice: true },
      { password: TEST_PASSWORD, issuer: 'Threadwork' },
      { newPassword: NEW_PASSWORD, token: 'not-a-real-token' },
    ],
  }),
  route({
    file: 'routes/not-found.tsx',
    action: notFound.action,
    targets: [at('/no/such/page', { '*': 'no/such/page' })],
    needsUser: false,
    reads: 'nothing',
    examples: [{ anything: '1' }],
  }),
]

/** Route files with an action that takes no form, and where it is tested instead. */
export const OTHER_ACTIONS: Record<string, string> = {
  'routes/api/rpc.ts': 'the RPC endpoint: its procedures have a fuzz suite of their own',
  'routes/api/stripe-webhook.ts':
    'Stripe’s signed JSON events: tests/integration/payments.test.ts and app/services/payments/webhook.server.test.ts',
  'routes/api/chat.ts':
    "the chat's JSON endpoint: tests/integration/chat-routes.test.ts sends it every kind of body",
  // Everyone but an admin gets 404 for any body, before it is read: the console's own test posts
  // every intent of every admin action as a visitor, a person and an unverified admin address.
  'routes/admin/person.tsx':
    'admin only: app/routes/admin/index.test.ts (404 for everyone else, every intent)',
  'routes/admin/purchases.tsx':
    'admin only: app/routes/admin/index.test.ts (404 for everyone else, every intent)',
  'routes/admin/queues.tsx':
    'admin only: app/routes/admin/index.test.ts (404 for everyone else, every intent)',
  'routes/admin/stop-sign-in-as.ts': 'support sessions only: app/routes/admin/index.test.ts',
  'routes/api/passkeys.ts':
    'the passkey ceremonies take JSON: app/routes/api/passkeys.test.ts and app/services/passkeys.server.test.ts',
  'routes/mcp.ts': 'the MCP endpoint takes JSON-RPC with a bearer token: tests/integration/mcp.test.ts',
  'routes/api/events.ts':
    'the event streams take no body: any mutation is refused (403 without a token, else 405), tests/integration/fast-paths-parity.test.ts',
}

/**
 * A fingerprint of every table a request could change, one hash per table, so a failure names
 * the table. Left out, on purpose: `rate_limits`, because a refused attempt still counts against
 * its limit (that is what limits are for), and a session's `last_seen_at` and `expires_at`,
 * which reading a session refreshes; and the search index's own tables, which mirror `tasks` and
 * `comments` (hashed already).
 */
export async function tableFingerprints(db: Database): Promise<Record<string, string>> {
  const tables = await db.all<{ name: string }>(
    sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' AND name <> 'rate_limits' AND name NOT IN (SELECT name FROM pragma_table_list WHERE type = 'shadow') ORDER BY name`,
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
