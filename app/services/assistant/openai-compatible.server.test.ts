import type { UIMessage } from 'ai'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { tasks } from '~/db/schema'
import { waitForStream } from '~/services/chat-streams.server'
import { getOwnChat, textOf } from '~/services/chats.server'
import { toSessionUser } from '~/services/sessions.server'
import {
  type OpenAICompatibleFixture,
  type Reply,
  startOpenAICompatibleServer,
} from '../../../tests/fixtures/openai-compatible'
import { createTask, createUser } from '../../../tests/helpers/factories'
import { startAnswer } from './generate.server'
import { chatModel } from './model.server'

/**
 * A remote model through the real provider code (@ai-sdk/openai-compatible) over HTTP, against
 * the local stand-in: text streams in, tool calls with fragmented arguments run our tools with
 * the session's person, writes wait for approval, and a provider's error reaches the person as
 * its message.
 */

let server: OpenAICompatibleFixture
let script: Reply[] = []

beforeAll(async () => {
  server = await startOpenAICompatibleServer(() => script.shift() ?? { text: 'Nothing more to say.' })
})
afterAll(() => server.close())

const db = () => database()
const model = () =>
  chatModel({
    AI_BASE_URL: server.baseURL,
    AI_API_KEY: 'sk-test',
    AI_MODEL: 'stand-in-1',
    AI_ASSISTANT_WORD_DELAY_MS: 0,
  })

let chatNumber = 0
async function ask(user: ReturnType<typeof toSessionUser>, text: string) {
  const chatId = `remote-${++chatNumber}`
  await waitForStream(
    db(),
    await startAnswer(db(), user, { trigger: 'submit-message', chatId, text }, model()),
  )
  return { chatId, messages: (await getOwnChat(db(), user, chatId)).messages }
}

describe('an OpenAI-compatible endpoint', () => {
  test('streams a text answer; the request names the model, the key, the tools and the history', async () => {
    const user = toSessionUser(await createUser(db()))
    script = [{ text: 'Hello from the stand-in model.', pieces: 5 }]
    const { messages } = await ask(user, 'Hi!')
    expect(textOf(messages.at(-1) as UIMessage)).toBe('Hello from the stand-in model.')
    const request = server.requests.at(-1)
    expect(request?.headers.authorization).toBe('Bearer sk-test')
    expect(request?.body).toMatchObject({ model: 'stand-in-1', stream: true })
    expect(request?.body.messages.at(-1)).toMatchObject({ role: 'user', content: 'Hi!' })
    expect(request?.body.tools?.map((tool) => tool.function.name).sort()).toEqual(
      [
        'createTask',
        'getMyStats',
        'listMyTasks',
        'searchDocs',
        'searchMyTasks',
        'setTaskStatus',
        'updateTask',
      ].sort(),
    )
  })

  test('a tool call with fragmented arguments runs for the session’s person only', async () => {
    const user = toSessionUser(await createUser(db()))
    const stranger = await createUser(db())
    await createTask(db(), { userId: user.id, text: 'Mine, in progress', status: 'In Progress' })
    await createTask(db(), { userId: stranger.id, text: 'Not mine', status: 'In Progress', isPublic: true })
    script = [
      { toolCalls: [{ name: 'listMyTasks', arguments: { status: 'In Progress' } }] },
      { text: 'You have one task in progress.' },
    ]
    const { messages } = await ask(user, 'What am I doing?')
    const answer = messages.at(-1) as UIMessage
    const part = answer.parts.find((entry) => entry.type === 'tool-listMyTasks') as { output: unknown }
    expect(part.output).toMatchObject({ total: 1, tasks: [{ text: 'Mine, in progress' }] })
    expect(textOf(answer)).toBe('You have one task in progress.')
    // The second request carried the tool's result back to the model.
    const followUp = server.requests.at(-1)?.body.messages.at(-1)
    expect(followUp).toMatchObject({ role: 'tool' })
    expect(String(followUp?.content)).toContain('Mine, in progress')
    expect(String(followUp?.content)).not.toContain('Not mine')
  })

  test('a write the model asks for waits for approval; nothing is created before', async () => {
    const user = toSessionUser(await createUser(db()))
    script = [{ toolCalls: [{ name: 'createTask', arguments: { text: 'Made by the model' } }] }]
    const requestsBefore = server.requests.length
    const { messages } = await ask(user, 'Add a task for me')
    const part = messages.at(-1)?.parts.find((entry) => entry.type === 'tool-createTask')
    expect(part).toMatchObject({ state: 'approval-requested', input: { text: 'Made by the model' } })
    expect(server.requests.length).toBe(requestsBefore + 1)
    const rows = await db().select().from(tasks)
    expect(rows.some((row) => row.text === 'Made by the model')).toBe(false)
  })

  test("a provider's refusal is the person's error message, and the chat keeps their message", async () => {
    const user = toSessionUser(await createUser(db()))
    script = [{ status: 401, error: 'Incorrect API key provided.' }]
    const chatId = `remote-${++chatNumber}`
    const streamId = await startAnswer(db(), user, { trigger: 'submit-message', chatId, text: 'Hi' }, model())
    const { tailStream } = await import('~/services/chat-streams.server')
    const chunks = []
    for await (const chunk of tailStream(db(), streamId)) chunks.push(chunk)
    expect(chunks).toContainEqual({ type: 'error', errorText: 'Incorrect API key provided.' })
    const { messages } = await getOwnChat(db(), user, chatId)
    expect(messages[0]).toMatchObject({ role: 'user', parts: [{ type: 'text', text: 'Hi' }] })
  })
})
