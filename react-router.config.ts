import type { Config } from '@react-router/dev/config'

export default {
  ssr: true,
  // React Router checks a form post's Origin before any middleware runs and answers a bare
  // 400 'Bad Request'. authMiddleware (app/auth/middleware.server.ts) checks the same Origin and
  // the CSRF token too, and answers the contract's 403 'Invalid CSRF token' on every route, so the
  // framework's check is switched off ('**' allows any origin) instead of answering first.
  allowedActionOrigins: ['**'],
  // Every v8 flag 7.18 accepts, so moving to React Router 8 is a version bump.
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_passThroughRequests: true,
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config
