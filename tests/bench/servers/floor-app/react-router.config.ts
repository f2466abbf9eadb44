import type { Config } from '@react-router/dev/config'
import app from '../../../../react-router.config'

// The same mode and flags as the app, so the floor is the framework as we run it and nothing else.
export default { ssr: true, future: app.future } satisfies Config
