import { createUIMessageStreamResponse } from 'ai'
import { database } from '~/db/client.server'
import { refusalFor } from '~/http/refusals.server'
import { runningStream, tailStream } from '~/services/chat-streams.server'
import { getOwnChat } from '~/services/chats.server'
import { requireApiUser } from './+parts/api-user.server'
import type { Route } from './+types/chat-stream'

/**
 * GET /api/chat/:chatId/stream: `useChat`'s resume. Replays the running answer of the chat from
 * its first chunk and tails it to the end; 204 when no answer is being written.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireApiUser(request, context)
  const db = database()
  try {
    await getOwnChat(db, user, params.chatId)
  } catch (error) {
    const { reason, init } = refusalFor(error)
    return Response.json({ code: reason.code, message: reason.message }, init)
  }
  const streamId = await runningStream(db, params.chatId)
  if (!streamId) return new Response(null, { status: 204 })
  return createUIMessageStreamResponse({ stream: tailStream(db, streamId) })
}
