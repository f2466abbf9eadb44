import { index, type RouteConfig, route } from '@react-router/dev/routes'

/**
 * Every URL of the app, grouped by area. A feature the app does not have has no route (its URL
 * answers with the not-found screen), never a placeholder page.
 */
export default [
  // Public pages
  index('routes/home.tsx'),

  // Content: docs, blog, changelog and legal pages from content/, and what crawlers and feed
  // readers fetch
  route('docs', 'routes/docs/layout.tsx', [
    index('routes/docs/index.tsx'),
    route('*', 'routes/docs/doc.tsx'),
  ]),
  route('blog', 'routes/blog/index.tsx'),
  route('blog/rss.xml', 'routes/blog/rss.ts'),
  route('blog/*', 'routes/blog/post.tsx'),
  route('changelog', 'routes/changelog.tsx'),
  route('terms', 'routes/terms.tsx'),
  route('privacy', 'routes/privacy.tsx'),
  route('sitemap.xml', 'routes/sitemap.ts'),
  route('robots.txt', 'routes/robots.ts'),

  // Marketing
  route('showcase', 'routes/showcase.tsx'),
  route('pricing', 'routes/pricing.tsx'),
  route('support', 'routes/support.tsx'),

  // Payments: checkout starts here (a form on /pricing, or a shareable ?tier=&plan= link), Stripe
  // sends buyers back to the success page, and /settings/billing is where they find what they own
  route('payment/checkout', 'routes/payment/checkout.tsx'),
  route('payment/success', 'routes/payment/success.tsx'),
  route('settings/billing', 'routes/settings/billing.tsx'),
  route('settings/billing/receipts/:purchaseId', 'routes/settings/receipt.tsx'),

  // Accounts: getting in and out
  route('login', 'routes/auth/login.tsx'),
  route('signup', 'routes/auth/signup.tsx'),
  route('logout', 'routes/auth/logout.ts'),
  route('settings', 'routes/settings/index.tsx'),
  route('settings/two-factor', 'routes/settings/two-factor.tsx'),

  // What programs may do for a person: API tokens and webhooks (and their deliveries)
  route('settings/developer', 'routes/settings/developer/index.tsx'),
  route('settings/developer/webhooks/:endpointId', 'routes/settings/developer/webhook-deliveries.tsx'),

  // OAuth: the sign-in buttons start a flow at /login/github or /login/google; both providers send
  // people back to /login/callback (the redirect URI registered with them)
  route('login/callback', 'routes/auth/login-callback.tsx'),
  // Accounts with two-factor on give their code here after any first factor
  route('login/two-factor', 'routes/auth/login-two-factor.tsx'),
  route('login/:provider', 'routes/auth/login-provider.ts'),

  // Signed-in pages (each redirects visitors to /login?redirect=<path>)
  route('dashboard', 'routes/dashboard/index.tsx'),
  route('onboarding', 'routes/onboarding.tsx'),
  route('task', 'routes/tasks/index.tsx'),
  route('task/actions', 'routes/tasks/actions.tsx'),
  route('task/comments', 'routes/tasks/comments.tsx'),
  route('notifications', 'routes/notifications.tsx'),
  route('search', 'routes/search/index.tsx'),
  route('workspaces', 'routes/workspaces/index.tsx'),
  route('workspaces/:slug/settings', 'routes/workspaces/settings.tsx'),
  route('workspaces/switch', 'routes/workspaces/switch.tsx'),
  // The people of a workspace, and the invitations to one (a workspace someone is not in, and an
  // invitation to someone else's address, answer 404)
  route('workspaces/:slug/members', 'routes/workspaces/members.tsx'),
  route('invitations/:invitationId', 'routes/invitations/invitation.tsx'),
  route('chat/:chatId?', 'routes/chat/index.tsx'),
  route('saved-chats', 'routes/saved-chats/index.tsx'),

  // Saved chats: one is readable by whoever its owner lets read it (404 for everyone else)
  route('saved-chats/:chatId', 'routes/saved-chats/chat.tsx'),

  // E-mail flows: the links in verification and reset e-mails land here; /dev/mailbox shows the
  // outbox outside production
  route('email/verify-email', 'routes/email/verify-email.tsx'),
  route('email/request-verification', 'routes/email/request-verification.tsx'),
  route('email/forgot-password', 'routes/email/forgot-password.tsx'),
  route('email/reset-password', 'routes/email/reset-password.tsx'),
  route('dev/mailbox', 'routes/dev/mailbox.tsx'),

  // The admin console, for the verified addresses in ADMIN_EMAILS; a 404 for everyone else
  // (app/auth/admin.server.ts, docs/decisions/045-admin-console.md)
  route('admin', 'routes/admin/index.tsx'),
  route('admin/people/:userId', 'routes/admin/person.tsx'),
  route('admin/purchases', 'routes/admin/purchases.tsx'),
  route('admin/workspaces', 'routes/admin/workspaces.tsx'),
  route('admin/queues', 'routes/admin/queues.tsx'),
  route('admin/audit', 'routes/admin/audit.tsx'),
  route('admin/sign-in-as/stop', 'routes/admin/stop-sign-in-as.ts'),

  // Status: the health report as a page, for people and for the uptime monitors that point at it
  route('tss', 'routes/tss.tsx'),

  // Platform: health for load balancers, the RPC endpoint, live updates, small resource actions.
  // /healthz, the event streams and unchanged polls of /api/rpc are answered ahead of the router
  // in production (server/fast-paths.ts); these routes answer them too, with FAST_PATHS=off
  route('healthz', 'routes/healthz.ts'),
  // Prometheus metrics for a bearer of METRICS_TOKEN; 404 without one
  // (docs/decisions/044-metrics-traces-and-structured-logs.md)
  route('metrics', 'routes/metrics.ts'),
  route('api/rpc/*', 'routes/api/rpc.ts'),
  // The reference of /api/rpc, generated from its router (app/rpc/openapi.server.ts)
  route('api/openapi.json', 'routes/api/openapi.ts'),
  // The MCP server for AI agents: personal API tokens only (app/mcp/)
  route('mcp', 'routes/mcp.ts'),
  route('api/events/tasks', 'routes/api/events.ts', { id: 'routes/api/events-tasks' }),
  route('api/events/comments', 'routes/api/events.ts', { id: 'routes/api/events-comments' }),
  route('api/csrf', 'routes/api/csrf.ts'),
  route('api/auth/*', 'routes/api/auth.ts'),
  route('api/passkeys/:step', 'routes/api/passkeys.ts'),
  route('api/stripe/webhook', 'routes/api/stripe-webhook.ts'),
  route('api/chat', 'routes/api/chat.ts'),
  route('api/chat/:chatId/stream', 'routes/api/chat-stream.ts'),
  route('resources/theme', 'routes/resources/theme.ts'),

  // Everything else: a real 404 with the not-found screen
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig
