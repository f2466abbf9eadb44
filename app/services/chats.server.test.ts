import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { chats, events, users } from '~/db/schema'
import { builtInModel } from '~/services/assistant/built-in-model.server'
import { startAnswer } from '~/services/assistant/generate.server'
import { ONE_GENERATION_AT_A_TIME, waitForStream } from '~/services/chat-streams.server'
import {
  CHAT_NOT_FOUND,
  consumeChatMessage,
  createChat,
  deleteChat,
  getChat,
  listSavedChats,
  NEW_CHAT_TITLE,
  renameChat,
  setChatSharing,
  titleFromMessage,
} from '~/services/chats.server'
import { toSessionUser } from '~/services/sessions.server'
import { createUser } from '../../tests/helpers/factories'

/** Saved chats: who reads them, who changes them, their titles, and the daily allowance. */

const db = () => database()
const person = async (overrides: Parameters<typeof createUser>[1] = {}) =>
  toSessionUser(await createUser(db(), overrides))
let chatNumber = 0
const newChatId = () => `chat-${++chatNumber}`

describe('titles come from the first message', () => {
  test.each([
    ['What is in progress?', 'What is in progress?'],
    ['  **Plan** the   _offsite_ \nand more lines', 'Plan the offsite'],
    ['\n\n# Heading first\nbody', 'Heading first'],
    ['', NEW_CHAT_TITLE],
    ['***', NEW_CHAT_TITLE],
    [
      'Please summarise every task I have touched since the beginning of the quarter, grouped by status',
      'Please summarise every task I have touched since the…',
    ],
    ['x'.repeat(80), `${'x'.repeat(60)}…`],
  ])('%j → %j', (message, title) => {
    expect(titleFromMessage(message)).toBe(title)
  })

  test('a new chat is titled, listed for its owner only, and its creation is an event', async () => {
    const owner = await person()
    const other = await person()
    const chatId = newChatId()
    await createChat(db(), owner, chatId, 'How many tasks do I have?')
    expect(await listSavedChats(db(), owner)).toMatchObject([
      { id: chatId, title: 'How many tasks do I have?' },
    ])
    expect(await listSavedChats(db(), other)).toEqual([])
    const logged = await db().select().from(events).where(eq(events.topic, 'chats'))
    expect(logged.map((event) => event.payload)).toContainEqual({ chatId, userId: owner.id })
  })

  test("a chat id someone else holds is not theirs to write in: 'Chat not found'", async () => {
    const owner = await person()
    const chatId = newChatId()
    await createChat(db(), owner, chatId, 'Mine')
    await expect(createChat(db(), await person(), chatId, 'Hijack')).rejects.toThrow(CHAT_NOT_FOUND)
  })
})

describe('who reads a saved chat', () => {
  async function sharedSetup() {
    const owner = await person()
    const friend = await person({ email: `friend-${chatNumber}@example.test` })
    const unverified = await person({ email: `unverified-${chatNumber}@example.test`, emailVerifiedAt: null })
    const stranger = await person()
    const chatId = newChatId()
    await createChat(db(), owner, chatId, 'A chat')
    return { owner, friend, unverified, stranger, chatId }
  }

  test('private: the owner only; everyone else, signed in or not, gets not found', async () => {
    const { owner, stranger, chatId } = await sharedSetup()
    expect((await getChat(db(), owner, chatId)).isOwner).toBe(true)
    await expect(getChat(db(), stranger, chatId)).rejects.toThrow(CHAT_NOT_FOUND)
    await expect(getChat(db(), null, chatId)).rejects.toThrow(CHAT_NOT_FOUND)
  })

  test('public: anyone with the link reads it, without seeing whom it is shared with', async () => {
    const { owner, friend, chatId } = await sharedSetup()
    await setChatSharing(db(), owner, chatId, { visibility: 'public', emails: [friend.email] })
    const visitor = await getChat(db(), null, chatId)
    expect(visitor).toMatchObject({ isOwner: false, chat: { visibility: 'public', sharedWith: [] } })
    expect((await getChat(db(), owner, chatId)).chat.sharedWith).toEqual([friend.email])
  })

  test('shared: verified addresses only; revoking takes it back', async () => {
    const { owner, friend, unverified, stranger, chatId } = await sharedSetup()
    await setChatSharing(db(), owner, chatId, {
      visibility: 'private',
      emails: [friend.email, unverified.email],
    })
    expect((await getChat(db(), friend, chatId)).isOwner).toBe(false)
    await expect(getChat(db(), unverified, chatId)).rejects.toThrow(CHAT_NOT_FOUND)
    await expect(getChat(db(), stranger, chatId)).rejects.toThrow(CHAT_NOT_FOUND)
    await setChatSharing(db(), owner, chatId, { visibility: 'private', emails: [] })
    await expect(getChat(db(), friend, chatId)).rejects.toThrow(CHAT_NOT_FOUND)
  })

  test('only the owner renames, shares or deletes; a reader is refused, a stranger gets not found', async () => {
    const { owner, friend, stranger, chatId } = await sharedSetup()
    await setChatSharing(db(), owner, chatId, { visibility: 'private', emails: [friend.email] })
    await expect(renameChat(db(), friend, chatId, 'Mine now')).rejects.toThrow(
      'Only the owner of this chat can change it.',
    )
    await expect(setChatSharing(db(), friend, chatId, { visibility: 'public', emails: [] })).rejects.toThrow(
      'Only the owner of this chat can change it.',
    )
    await expect(deleteChat(db(), stranger, chatId)).rejects.toThrow(CHAT_NOT_FOUND)
    await renameChat(db(), owner, chatId, 'Renamed')
    expect((await getChat(db(), owner, chatId)).chat.title).toBe('Renamed')
    await deleteChat(db(), owner, chatId)
    expect(await db().select().from(chats).where(eq(chats.id, chatId))).toEqual([])
  })

  test('the owner cannot share a chat with themselves', async () => {
    const { owner, chatId } = await sharedSetup()
    await expect(
      setChatSharing(db(), owner, chatId, { visibility: 'private', emails: [owner.email] }),
    ).rejects.toThrow('You already own this chat.')
  })
})

describe('limits', () => {
  test('messages per day come from the plan: 20 on the free plan, then 429 until midnight UTC', async () => {
    const free = await person()
    const noon = Date.UTC(2026, 10, 24, 12, 0, 0)
    for (let index = 0; index < 20; index++) await consumeChatMessage(db(), free, noon)
    const refusal = await consumeChatMessage(db(), free, noon).catch((error: unknown) => error)
    expect(refusal).toMatchObject({ status: 429, retryAfter: 12 * 60 * 60 })
    expect(String((refusal as Error).message)).toContain('You have sent your 20 AI chat messages for today.')
    // The next UTC day starts afresh.
    await consumeChatMessage(db(), free, Date.UTC(2026, 10, 25, 0, 0, 1))
  })

  test('a paid plan allows more', async () => {
    const paid = await person()
    await db().update(users).set({ plan: 'tier1', planKind: 'lifetime' }).where(eq(users.id, paid.id))
    const noon = Date.UTC(2026, 10, 24, 12, 0, 0)
    for (let index = 0; index < 100; index++) await consumeChatMessage(db(), paid, noon)
    await expect(consumeChatMessage(db(), paid, noon)).rejects.toMatchObject({ status: 429 })
  })

  test('one generation per chat at a time: a second request is refused with 409 and costs nothing', async () => {
    const owner = await person()
    const chatId = newChatId()
    const slow = builtInModel({ wordDelayMs: 20 })
    const first = await startAnswer(db(), owner, { trigger: 'submit-message', chatId, text: 'Hello' }, slow)
    await expect(
      startAnswer(db(), owner, { trigger: 'submit-message', chatId, text: 'Again' }, slow),
    ).rejects.toMatchObject({ status: 409, message: ONE_GENERATION_AT_A_TIME })
    await waitForStream(db(), first)
    const { messages } = await getChat(db(), owner, chatId)
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant'])
  })
})
