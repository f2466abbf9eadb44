import { fc, test as fcTest } from '@fast-check/vitest'
import { beforeAll, describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import * as chatApi from '~/routes/api/chat'
import * as chatStream from '~/routes/api/chat-stream'
import * as chatPage from '~/routes/chat/index'
import * as savedChat from '~/routes/saved-chats/chat'
import * as savedChats from '~/routes/saved-chats/index'
import { CHAT_MESSAGE_MAX } from '~/services/chat-schemas'
import { consumeChatMessage, createChat, getChat, setChatSharing, textOf } from '~/services/chats.server'
import { toSessionUser } from '~/services/sessions.server'
import { anonymousBrowser, callThroughMiddleware, signedInBrowser } from '../helpers/auth'
import { createUser } from '../helpers/factories'
import { tableFingerprints } from '../helpers/form-actions'

/**
 * The chat's routes with real Requests through the root middleware: the JSON endpoint useChat
 * talks to, its resume endpoint, the page's form (the chat without JavaScript) and the saved-chat pages.
 */

const db = () => database()
let chatNumber = 0
const newChatId = () => `route-chat-${++chatNumber}`

async function signedIn() {
  const user = await createUser(db())
  return { user: toSessionUser(user), browser: await signedInBrowser(db(), user.id) }
}

describe('POST /api/chat', () => {
  test('streams the answer as a UI message stream and saves the conversation', async () => {
    const { user, browser } = await signedIn()
    const chatId = newChatId()
    const answer = await callThroughMiddleware(chatApi.action, {
      url: '/api/chat',
      headers: browser.headers(),
      json: { trigger: 'submit-message', chatId, text: 'How many tasks do I have?', messageId: 'client-1' },
    })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('Content-Type')).toContain('text/event-stream')
    expect(answer.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1')
    const events = String(answer.body).trimEnd().split('\n\n')
    expect(events.at(-1)).toBe('data: [DONE]')
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.replace(/^data: /, '')))
    expect(chunks[0]).toMatchObject({ type: 'start' })
    expect(chunks).toContainEqual(
      expect.objectContaining({ type: 'tool-input-available', toolName: 'getMyStats' }),
    )
    const text = chunks.flatMap((chunk) => (chunk.type === 'text-delta' ? [chunk.delta] : [])).join('')
    expect(text).toBe('You have no tasks yet. Ask me to create one, or add it on the [task list](/task).')
    const { chat, messages } = await getChat(db(), user, chatId)
    expect(chat.title).toBe('How many tasks do I have?')
    expect(messages.map((message) => [message.id === 'client-1', message.role])).toEqual([
      [true, 'user'],
      [false, 'assistant'],
    ])
  })

  test('a signed-out caller gets 401 JSON, never a redirect', async () => {
    const answer = await callThroughMiddleware(chatApi.action, {
      url: '/api/chat',
      headers: anonymousBrowser().headers(),
      json: { trigger: 'submit-message', chatId: newChatId(), text: 'Hi' },
    })
    expect(answer).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } })
  })

  test('without a CSRF token: 403, before anything runs', async () => {
    const { user, browser } = await signedIn()
    const chatId = newChatId()
    const answer = await callThroughMiddleware(chatApi.action, {
      url: '/api/chat',
      headers: browser.headers({ withCsrf: false }),
      json: { trigger: 'submit-message', chatId, text: 'Hi' },
    })
    expect(answer).toMatchObject({ status: 403, handled: false })
    await expect(getChat(db(), user, chatId)).rejects.toThrow('Chat not found')
  })

  test('a message over the cap is refused with 400 and its reason', async () => {
    const { browser } = await signedIn()
    const answer = await callThroughMiddleware(chatApi.action, {
      url: '/api/chat',
      headers: browser.headers(),
      json: { trigger: 'submit-message', chatId: newChatId(), text: 'x'.repeat(CHAT_MESSAGE_MAX + 1) },
    })
    expect(answer).toMatchObject({
      status: 400,
      body: { message: 'A message has at most 4,000 characters.' },
    })
  })

  test('past the daily allowance: 429 with Retry-After and what to do', async () => {
    const { user, browser } = await signedIn()
    for (let index = 0; index < 20; index++) await consumeChatMessage(db(), user)
    const answer = await callThroughMiddleware(chatApi.action, {
      url: '/api/chat',
      headers: browser.headers(),
      json: { trigger: 'submit-message', chatId: newChatId(), text: 'One more' },
    })
    expect(answer.status).toBe(429)
    expect(Number(answer.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect((answer.body as { message: string }).message).toContain('The allowance renews at midnight UTC')
  })

  test('not JSON: 415', async () => {
    const { browser } = await signedIn()
    const answer = await callThroughMiddleware(chatApi.action, {
      url: '/api/chat',
      headers: browser.headers({ extra: { 'Content-Type': 'text/plain' } }),
      body: 'hello',
    })
    expect(answer.status).toBe(415)
  })

  describe('any other JSON body', () => {
    let browser: Awaited<ReturnType<typeof signedIn>>['browser']
    beforeAll(async () => {
      browser = (await signedIn()).browser
    })

    fcTest.prop([fc.jsonValue()], { numRuns: 40 })(
      'is a 400 that changes nothing',
      async (body) => {
        const before = await tableFingerprints(db())
        const answer = await callThroughMiddleware(chatApi.action, {
          url: '/api/chat',
          headers: browser.headers(),
          json: body,
        })
        expect(answer.status).toBe(400)
        expect(await tableFingerprints(db())).toEqual(before)
      },
      30_000,
    )
  })
})

describe('GET /api/chat/:chatId/stream', () => {
  test('204 when nothing is being written; 404 for a chat that is not yours', async () => {
    const { user, browser } = await signedIn()
    const chatId = newChatId()
    await createChat(db(), user, chatId, 'Quiet')
    const quiet = await callThroughMiddleware(
      chatStream.loader,
      {
        url: `/api/chat/${chatId}/stream`,
        params: { chatId },
        headers: browser.headers(),
      },
      'GET',
    )
    expect(quiet.status).toBe(204)
    const stranger = await signedIn()
    const theirs = await callThroughMiddleware(
      chatStream.loader,
      {
        url: `/api/chat/${chatId}/stream`,
        params: { chatId },
        headers: stranger.browser.headers(),
      },
      'GET',
    )
    expect(theirs).toMatchObject({ status: 404, body: { code: 'NOT_FOUND', message: 'Chat not found' } })
  })
})

describe('the chat without JavaScript', () => {
  test('the form posts the message; the page comes back with the complete answer', async () => {
    const { user, browser } = await signedIn()
    const chatId = newChatId()
    const answer = await callThroughMiddleware(chatPage.action, {
      url: '/chat',
      headers: browser.headers(),
      form: browser.form({ intent: 'send', chatId, text: 'Hello' }),
    })
    expect(answer).toMatchObject({ status: 302, location: `/chat/${chatId}` })
    const { messages } = await getChat(db(), user, chatId)
    expect(textOf(messages[1] as never)).toContain('No AI model is connected')
    const page = await callThroughMiddleware(
      chatPage.loader,
      {
        url: `/chat/${chatId}`,
        params: { chatId },
        headers: browser.headers(),
      },
      'GET',
    )
    expect(page.body).toMatchObject({ isRunning: false, chat: { id: chatId }, chats: [{ id: chatId }] })
  })
})

describe('saved chats', () => {
  test('/saved-chats lists the person’s chats; rename changes the title', async () => {
    const { user, browser } = await signedIn()
    const chatId = newChatId()
    await createChat(db(), user, chatId, 'Before')
    const renamed = await callThroughMiddleware(savedChats.action, {
      url: '/saved-chats',
      headers: browser.headers(),
      form: browser.form({ intent: 'rename', chatId, title: 'After' }),
    })
    expect(renamed).toMatchObject({ status: 302, location: '/saved-chats' })
    const page = await callThroughMiddleware(
      savedChats.loader,
      { url: '/saved-chats', headers: browser.headers() },
      'GET',
    )
    expect(page.body).toMatchObject({ chats: [{ id: chatId, title: 'After', visibility: 'private' }] })
  })

  test('/saved-chats/:id: private is 404 for others; public is read by a signed-out visitor, noindex', async () => {
    const { user, browser } = await signedIn()
    const stranger = await signedIn()
    const chatId = newChatId()
    await createChat(db(), user, chatId, 'Shared by link')
    const read = (headers: Headers) =>
      callThroughMiddleware(
        savedChat.loader,
        { url: `/saved-chats/${chatId}`, params: { chatId }, headers },
        'GET',
      )
    expect((await read(stranger.browser.headers())).status).toBe(404)
    expect((await read(anonymousBrowser().headers())).status).toBe(404)

    const made = await callThroughMiddleware(savedChat.action, {
      url: `/saved-chats/${chatId}`,
      params: { chatId },
      headers: browser.headers(),
      form: browser.form({ intent: 'share', visibility: 'public', emails: '' }),
    })
    expect(made.status).toBe(302)
    expect(await read(anonymousBrowser().headers())).toMatchObject({
      status: 200,
      body: { isOwner: false, chat: { title: 'Shared by link', visibility: 'public', sharedWith: [] } },
    })
    expect(savedChat.headers()).toMatchObject({ 'X-Robots-Tag': 'noindex' })

    await setChatSharing(db(), user, chatId, { visibility: 'private', emails: [] })
    expect((await read(anonymousBrowser().headers())).status).toBe(404)
  })

  test('a person who is not the owner cannot change who reads it', async () => {
    const { user } = await signedIn()
    const stranger = await signedIn()
    const chatId = newChatId()
    await createChat(db(), user, chatId, 'Mine')
    const answer = await callThroughMiddleware(savedChat.action, {
      url: `/saved-chats/${chatId}`,
      params: { chatId },
      headers: stranger.browser.headers(),
      form: stranger.browser.form({ intent: 'share', visibility: 'public', emails: '' }),
    })
    expect(answer).toMatchObject({ status: 404, body: { error: 'Chat not found' } })
    expect((await getChat(db(), user, chatId)).chat.visibility).toBe('private')
  })
})
