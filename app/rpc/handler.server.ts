import { onError } from '@orpc/server'
import { RPCHandler } from '@orpc/server/fetch'
import type { SessionUser } from '~/auth/session-user'
import { database } from '~/db/client.server'
import { toORPCError } from './base.server'
import { router } from './router.server'

export const RPC_PREFIX = '/api/rpc'

const handler = new RPCHandler(router, {
  clientInterceptors: [
    async ({ next }) => {
      try {
        return await next()
      } catch (error) {
        throw toORPCError(error)
      }
    },
  ],
  interceptors: [
    onError((error) => {
      // Expected failures are answers; only the unexpected ones belong in the log.
      if (!(error instanceof Error) || !('code' in error) || (error as { status?: number }).status === 500) {
        console.error('RPC error', error)
      }
    }),
  ],
})

/** Answers an /api/rpc request, or undefined when no procedure matches its path. */
export async function handleRpc(request: Request, user: SessionUser | null) {
  const { matched, response } = await handler.handle(request, {
    prefix: RPC_PREFIX,
    context: { db: database(), user, headers: request.headers },
  })
  return matched ? response : undefined
}
