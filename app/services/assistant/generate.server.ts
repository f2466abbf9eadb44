import { AISDKError, type LanguageModelV3 } from '@ai-sdk/provider'
import {
  convertToModelMessages,
  type LanguageModelUsage,
  stepCountIs,
  streamText,
  type Tool,
  type UIMessage,
  validateUIMessages,
} from 'ai'
import { and, eq, ne } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { chatMessages } from '~/db/schema'
import type { ChatRequest } from '~/services/chat-schemas'
import {
  ChunkWriter,
  ONE_GENERATION_AT_A_TIME,
  openStream,
  runningStream,
} from '~/services/chat-streams.server'
import { consumeChatMessage, createChat, getOwnChat, saveMessages } from '~/services/chats.server'
import { Conflict, Invalid } from '~/services/errors'
import type { SessionUser } from '~/services/session-user'
import { DEFAULT_TIME_ZONE, todayIn } from '~/utils/calendar'
import { aiChatRequests, aiChatTokens } from '~/utils/metrics.server'
import { chatTools } from './tools.server'

/**
 * One answer, from the person's request to the saved message: the conversation is put together
 * from what is saved (the client sends only its new message or its approvals), the model —
 * remote or built in — runs through `streamText` with the person's tools, and its UI message
 * chunks go to the database as they come (see chat-streams.server.ts). The generation belongs to
 * no request: it goes on if the tab closes, and its answer is saved when it ends.
 */

/** Tool-call rounds in one answer: enough to find a task and then change it, and to explain. */
const MAX_STEPS = 5

const GENERATION_FAILED = 'The assistant could not answer. Try again in a moment.'

function systemPrompt(user: SessionUser, timeZone: string, now = Date.now()) {
  const today = todayIn(timeZone, now)
  const weekday = new Intl.DateTimeFormat('en-US', { weekday: 'long', timeZone }).format(now)
  return [
    `You are Threadwork's assistant, talking with ${user.name || 'a Threadwork user'}.`,
    `Today is ${weekday}, ${today}, in their time zone (${timeZone}); due dates are calendar days in it.`,
    'Answer from their tasks and the Threadwork docs through the tools; never invent tasks, counts or doc content.',
    'When you quote the docs, link the page. Keep answers short and use markdown lists for tasks.',
    'Creating a task or changing a status asks the person to approve it; say what you will do.',
  ].join(' ')
}

/** What a person may be told about a failure: a provider's own message, never a stack trace. */
function errorMessageFor(error: unknown) {
  if (AISDKError.isInstance(error)) return error.message
  return GENERATION_FAILED
}

/** A provider's error is logged by its message: its request body would put the chat in the log. */
function logFailure(error: unknown) {
  console.error('Chat generation failed:', AISDKError.isInstance(error) ? error.message : error)
}

/** One answer in the metrics, with the tokens its model reported (the built-in one reports none). */
function countAnswer(
  model: LanguageModelV3,
  outcome: string,
  result: { totalUsage: PromiseLike<LanguageModelUsage> },
) {
  const backend = model.provider
  aiChatRequests.inc({ backend, outcome })
  Promise.resolve(result.totalUsage).then(
    (usage) => {
      aiChatTokens.inc({ backend, direction: 'input' }, usage.inputTokens ?? 0)
      aiChatTokens.inc({ backend, direction: 'output' }, usage.outputTokens ?? 0)
    },
    () => {},
  )
}

type Conversation = { messages: UIMessage[]; fromPosition: number }

/** The conversation the request asks to continue, as it must be saved before answering. */
async function conversationFor(db: Database, user: SessionUser, request: ChatRequest): Promise<Conversation> {
  if (request.trigger === 'submit-message') {
    const isNew = await createChat(db, user, request.chatId, request.text)
    const saved = isNew ? [] : (await getOwnChat(db, user, request.chatId)).messages
    const edited = request.messageId ? saved.findIndex((message) => message.id === request.messageId) : -1
    const position = edited >= 0 && saved[edited]?.role === 'user' ? edited : saved.length
    const kept = saved.slice(0, position)
    const isKeptId = kept.some((message) => message.id === request.messageId)
    const id = await freeMessageId(db, request.chatId, isKeptId ? undefined : request.messageId)
    const message: UIMessage = { id, role: 'user', parts: [{ type: 'text', text: request.text }] }
    return { messages: [...kept, message], fromPosition: position }
  }

  const { messages: saved } = await getOwnChat(db, user, request.chatId)
  if (request.trigger === 'regenerate-message') {
    const lastUser = saved.findLastIndex((message) => message.role === 'user')
    if (lastUser < 0) throw new Invalid('There is no message to answer again.')
    return { messages: saved.slice(0, lastUser + 1), fromPosition: lastUser + 1 }
  }

  const last = saved.at(-1)
  const decisions = new Map(request.approvals.map((approval) => [approval.id, approval.approved]))
  let answered = 0
  const parts = (last?.role === 'assistant' ? last.parts : []).map((part) => {
    if (!('state' in part) || part.state !== 'approval-requested' || !('approval' in part) || !part.approval)
      return part
    const approved = decisions.get(part.approval.id)
    if (approved === undefined) return part
    answered += 1
    return { ...part, state: 'approval-responded' as const, approval: { ...part.approval, approved } }
  })
  if (!last || answered === 0) throw new Conflict('Nothing is waiting for your approval any more.')
  return {
    messages: [...saved.slice(0, -1), { ...last, parts } as UIMessage],
    fromPosition: saved.length - 1,
  }
}

/** The client's id for a new message when no other chat holds it, else a new one. */
async function freeMessageId(db: Database, chatId: string, wanted: string | undefined) {
  if (!wanted) return crypto.randomUUID()
  const [taken] = await db
    .select({ id: chatMessages.id })
    .from(chatMessages)
    .where(and(eq(chatMessages.id, wanted), ne(chatMessages.chatId, chatId)))
  return taken ? crypto.randomUUID() : wanted
}

/**
 * Starts answering in a chat and returns the stream to read the answer from. Refuses (429) once
 * the person's daily messages are spent and (409) while an answer is still running there.
 */
export async function startAnswer(
  db: Database,
  user: SessionUser,
  request: ChatRequest,
  model: LanguageModelV3,
  /** The person's time zone, which "today", "overdue" and "this week" are read in. */
  timeZone = DEFAULT_TIME_ZONE,
): Promise<string> {
  // Checked first so a refused request costs no message; openStream checks again, atomically.
  if (await runningStream(db, request.chatId)) throw new Conflict(ONE_GENERATION_AT_A_TIME)
  if (request.trigger !== 'approve-tools') await consumeChatMessage(db, user)
  const tools = chatTools(db, user, timeZone)
  const { messages, fromPosition } = await conversationFor(db, user, request)
  // The saved parts are checked against the tools' schemas before any model sees them. (The
  // cast: validateUIMessages types its tools loosely, as `Tool<unknown, unknown>`.)
  const validated = await validateUIMessages<UIMessage>({
    messages,
    tools: tools as Record<string, Tool<unknown, unknown>>,
  })
  const streamId = await openStream(db, request.chatId)
  await saveMessages(db, request.chatId, validated, fromPosition)

  const abort = new AbortController()
  const writer = new ChunkWriter(db, streamId, () => abort.abort())
  let finished: UIMessage[] = validated
  const result = streamText({
    model,
    system: systemPrompt(user, timeZone),
    messages: await convertToModelMessages(validated, { tools }),
    tools,
    stopWhen: stepCountIs(MAX_STEPS),
    abortSignal: abort.signal,
  })
  const chunks = result.toUIMessageStream<UIMessage>({
    originalMessages: validated,
    generateMessageId: () => crypto.randomUUID(),
    onFinish: ({ messages: all }) => {
      finished = all
    },
    onError: (error) => {
      logFailure(error)
      return errorMessageFor(error)
    },
  })
  void (async () => {
    let status: 'done' | 'stopped' | 'failed' = 'done'
    try {
      for await (const chunk of chunks) {
        writer.push(chunk)
        if (chunk.type === 'error') status = 'failed'
      }
      if (abort.signal.aborted) status = 'stopped'
      await saveMessages(db, request.chatId, finished, fromPosition)
    } catch (error) {
      // A provider's error was logged (and streamed) once already, as an error chunk.
      if (status !== 'failed') logFailure(error)
      status = 'failed'
    } finally {
      await writer.close(status)
      countAnswer(model, status, result)
    }
  })()
  return streamId
}
