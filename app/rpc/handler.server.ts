import type { AnyContractRouter } from '@orpc/contract'
import { ORPCError, onError, type Router } from '@orpc/server'
import { RPCHandler } from '@orpc/server/fetch'
import { database } from '~/db/client.server'
import { type RpcContext, toORPCError } from './base.server'
import { router } from './router.server'

export const RPC_PREFIX = '/api/rpc'

/**
 * An RPC handler with the app's error translation and logging. Exported so tests can mount a
 * router of their own with exactly the behaviour clients see.
 */
export function createRpcHandler(procedures: Router<AnyContractRouter, RpcContext>) {
  return new RPCHandler(procedures, {
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
        if (!(error instanceof ORPCError) || error.status >= 500) console.error('RPC error', error)
      }),
    ],
  })
}

const handler = createRpcHandler(router)

/** Answers an /api/rpc request, or undefined when no procedure matches its path. */
export async function handleRpc(request: Request, caller: Pick<RpcContext, 'user' | 'isCsrfValid'>) {
  const { matched, response } = await handler.handle(request, {
    prefix: RPC_PREFIX,
    context: { db: database(), headers: request.headers, ...caller },
  })
  return matched ? response : undefined
}
