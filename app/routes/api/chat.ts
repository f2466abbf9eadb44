import { createUIMessageStreamResponse } from 'ai'
import { database } from '~/db/client.server'
import { refusalFor } from '~/http/refusals.server'
import { startAnswer } from '~/services/assistant/generate.server'
import { chatModel } from '~/services/assistant/model.server'
import { ChatRequestSchema } from '~/services/chat-schemas'
import { tailStream } from '~/services/chat-streams.server'
import { timeZoneFrom } from '~/utils/time-zone.server'
import { requireApiUser } from './+parts/api-user.server'
import type { Route } from './+types/chat'

/**
 * POST /api/chat: the chat page's `useChat` transport. Starts an answer and streams it back as
 * the AI SDK's UI message stream, read from the database like any resumed stream, so a reload
 * or a second tab sees the same chunks. Refusals are `{code, message}` JSON with their status.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireApiUser(request, context)
  if (!request.headers.get('Content-Type')?.startsWith('application/json')) {
    return Response.json(
      { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the message as JSON.' },
      { status: 415 },
    )
  }
  const body = await request.json().catch(() => undefined)
  const parsed = ChatRequestSchema.safeParse(body)
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? 'Check the message and try again.'
    return Response.json({ code: 'BAD_REQUEST', message }, { status: 400 })
  }
  const db = database()
  try {
    const streamId = await startAnswer(db, user, parsed.data, chatModel(), timeZoneFrom(request.headers))
    return createUIMessageStreamResponse({ stream: tailStream(db, streamId) })
  } catch (error) {
    const { reason, init } = refusalFor(error)
    return Response.json({ code: reason.code, message: reason.message }, init)
  }
}
