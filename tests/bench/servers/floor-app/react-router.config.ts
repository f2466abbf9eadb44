import type { Config } from '@react-router/dev/config'

// The same mode and flags as the app, so the floor is the framework as we run it and nothing else.
export default {
  ssr: true,
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_passThroughRequests: true,
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config
