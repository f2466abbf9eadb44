import { index, type RouteConfig, route } from '@react-router/dev/routes'

/**
 * Every URL of the app, grouped by area. Routes of features still to come are simply absent
 * (they answer with the not-found screen), never placeholders.
 */
export default [
  // Public pages
  index('routes/home.tsx'),

  // E-mail flows: the links in verification and reset e-mails land here; /dev/mailbox shows the
  // outbox outside production
  route('dev/mailbox', 'routes/dev.mailbox.tsx'),

  // Support group: health first, as the spec orders it
  route('tss', 'routes/tss.tsx'),

  // Platform: health for load balancers, the RPC door, small resource actions
  route('healthz', 'routes/healthz.ts'),
  route('api/rpc/*', 'routes/api.rpc.ts'),
  route('resources/theme', 'routes/resources.theme.ts'),

  // Everything else: a real 404 with the not-found screen
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig
