import type { UIMessage, UIMessageChunk } from 'ai'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { chatMessages, chatStreams } from '~/db/schema'
import { builtInModel } from '~/services/assistant/built-in-model.server'
import { startAnswer } from '~/services/assistant/generate.server'
import {
  ChunkWriter,
  FLUSH_MS,
  openStream,
  requestStop,
  runningStream,
  tailStream,
  waitForStream,
} from '~/services/chat-streams.server'
import { createChat, deleteChat, getChat, textOf } from '~/services/chats.server'
import type { SessionUser } from '~/services/session-user'
import { toSessionUser } from '~/services/sessions.server'
import { createUser } from '../../tests/helpers/factories'

/**
 * Answers kept in the database while they are written: any reader, however late, replays every
 * chunk in order and then tails the rest; a Stop reaches the generation through the database and
 * the partial answer is kept.
 */

const db = () => database()
let chatNumber = 0
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function readAll(stream: ReadableStream<UIMessageChunk>) {
  const chunks: UIMessageChunk[] = []
  for await (const chunk of stream) chunks.push(chunk)
  return chunks
}

/** An answer typed slowly enough to be stopped (or its chat deleted) in the middle. */
function startSlowAnswer(owner: SessionUser, chatId: string) {
  return startAnswer(
    db(),
    owner,
    { trigger: 'submit-message', chatId, text: 'Hello' },
    builtInModel({ wordDelayMs: 30 }),
  )
}

async function newChat() {
  const owner = toSessionUser(await createUser(db()))
  const chatId = `stream-${++chatNumber}`
  await createChat(db(), owner, chatId, 'Streams')
  return { owner, chatId }
}

describe('resume replays every chunk in order, then tails', () => {
  test('an early reader and a late reader see the same chunks, in the order they were written', async () => {
    const { chatId } = await newChat()
    const streamId = await openStream(db(), chatId)
    const writer = new ChunkWriter(db(), streamId, () => {})
    const early = readAll(tailStream(db(), streamId, 10))
    const written: UIMessageChunk[] = [
      { type: 'start', messageId: 'm1' },
      { type: 'text-start', id: 't' },
    ]
    for (let index = 0; index < 40; index++) written.push({ type: 'text-delta', id: 't', delta: `${index} ` })
    written.push({ type: 'text-end', id: 't' }, { type: 'finish' })
    let late: Promise<UIMessageChunk[]> | undefined
    for (const [index, chunk] of written.entries()) {
      writer.push(chunk)
      if (index % 7 === 0) await sleep(FLUSH_MS / 3)
      // A second tab opens half-way through.
      if (index === 20) late = readAll(tailStream(db(), streamId, 10))
    }
    expect(await runningStream(db(), chatId)).toBe(streamId)
    await writer.close('done')
    expect(await early).toEqual(written)
    expect(await late).toEqual(written)
    expect(await runningStream(db(), chatId)).toBeNull()
  })

  test('a reader that comes after the end still replays the whole answer', async () => {
    const { chatId } = await newChat()
    const streamId = await openStream(db(), chatId)
    const writer = new ChunkWriter(db(), streamId, () => {})
    const written: UIMessageChunk[] = [{ type: 'start' }, { type: 'finish' }]
    for (const chunk of written) writer.push(chunk)
    await writer.close('done')
    expect(await readAll(tailStream(db(), streamId))).toEqual(written)
  })

  test('a reader that goes away does not stop the generation: the answer is saved', async () => {
    const { owner, chatId } = await newChat()
    const streamId = await startAnswer(
      db(),
      owner,
      { trigger: 'submit-message', chatId, text: 'Hello' },
      builtInModel({ wordDelayMs: 5 }),
    )
    const reader = tailStream(db(), streamId, 10).getReader()
    await reader.read()
    await reader.cancel()
    await waitForStream(db(), streamId)
    const { messages } = await getChat(db(), owner, chatId)
    expect(textOf(messages.at(-1) as UIMessage)).toContain('I answer from your tasks and the docs.')
  })
})

describe('stop', () => {
  test('a Stop through the database aborts the generation and keeps the partial answer', async () => {
    const { owner, chatId } = await newChat()
    const streamId = await startSlowAnswer(owner, chatId)
    await sleep(300)
    expect(await requestStop(db(), chatId)).toBe(true)
    const chunks = await readAll(tailStream(db(), streamId, 10))
    expect(chunks.at(-1)?.type).toBe('abort')
    const { messages } = await getChat(db(), owner, chatId)
    const partial = textOf(messages.at(-1) as UIMessage)
    expect(partial.length).toBeGreaterThan(0)
    expect(partial).not.toContain('See [the AI docs](/docs/ai).')
    expect(await runningStream(db(), chatId)).toBeNull()
    expect(await requestStop(db(), chatId)).toBe(false)
  })
})

describe('when things go away', () => {
  test('deleting a chat while its answer is written stops the answer and keeps nothing', async () => {
    const { owner, chatId } = await newChat()
    const streamId = await startSlowAnswer(owner, chatId)
    await sleep(200)
    await deleteChat(db(), owner, chatId)
    await waitForStream(db(), streamId)
    await sleep(FLUSH_MS * 3)
    expect(await db().select().from(chatMessages).where(eq(chatMessages.chatId, chatId))).toEqual([])
  })

  test('a stream whose instance went away no longer counts as running, and its readers end', async () => {
    const { chatId } = await newChat()
    const streamId = await openStream(db(), chatId)
    await db()
      .update(chatStreams)
      .set({ updatedAt: new Date(Date.now() - 60_000) })
      .where(eq(chatStreams.id, streamId))
    expect(await runningStream(db(), chatId)).toBeNull()
    expect(await readAll(tailStream(db(), streamId, 10))).toEqual([])
    // A new answer may start: the abandoned one is marked failed.
    expect(await openStream(db(), chatId)).not.toBe(streamId)
  })
})
