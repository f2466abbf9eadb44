import type { UIMessage } from 'ai'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { tasks } from '~/db/schema'
import { resetEnvForTests } from '~/env.server'
import { waitForStream } from '~/services/chat-streams.server'
import { getOwnChat, textOf } from '~/services/chats.server'
import { toSessionUser } from '~/services/sessions.server'
import { todayIn } from '~/utils/calendar'
import { type ContentFolder, createContentFolder } from '../../../tests/helpers/content'
import { createTask, createUser, shareTask } from '../../../tests/helpers/factories'
import { NO_MODEL_NOTICE } from './answers'
import { builtInModel } from './built-in-model.server'
import { startAnswer } from './generate.server'

/**
 * The built-in assistant, end to end through the real pipeline (streamText, the tools, the
 * services, the saved chat) on a fixture database: what it answers must be exact, and only ever
 * about the asking person's own tasks.
 */

let content: ContentFolder
const model = builtInModel({ wordDelayMs: 0 })
const db = () => database()
const DAY = 24 * 60 * 60 * 1000

async function fixture() {
  const owner = await createUser(db(), { name: 'Ada' })
  const other = await createUser(db(), { name: 'Grace' })
  const old = new Date(Date.now() - 30 * DAY)
  const mine = [
    {
      text: 'Send the invoice to ACME',
      status: 'Not Started',
      priority: 'high',
      updatedAt: old,
      createdAt: old,
      dueDate: '2020-01-06',
    },
    { text: 'Plan the offsite', status: 'Not Started', priority: 'low', updatedAt: old, createdAt: old },
    { text: 'Review invoice template', status: 'Not Started', priority: 'medium' },
    { text: 'Write the quarterly report', status: 'In Progress', priority: 'high' },
    { text: 'Fix the login bug', status: 'In Progress', priority: 'medium', dueDate: todayIn('UTC') },
    { text: 'Book flights', status: 'Completed', priority: 'low', dueDate: '2020-01-06' },
  ] as const
  for (const task of mine) await createTask(db(), { userId: owner.id, ...task })
  // Others' tasks the owner can see (public, shared with them) are still not "my tasks".
  await createTask(db(), {
    userId: other.id,
    text: 'Grace invoice (public)',
    isPublic: true,
    status: 'In Progress',
  })
  const shared = await createTask(db(), {
    userId: other.id,
    text: 'Grace invoice (shared)',
    status: 'In Progress',
  })
  await shareTask(db(), shared.id, [owner.email])
  return { owner: toSessionUser(owner), other: toSessionUser(other) }
}

let people: Awaited<ReturnType<typeof fixture>>

beforeAll(async () => {
  content = createContentFolder()
  content.write(
    'docs/sharing.mdx',
    'title: Sharing\ndescription: Who sees what\norder: 2',
    'Share a task with named e-mail addresses; they see it once they verify the address.',
  )
  process.env.CONTENT_DIR = content.dir
  resetEnvForTests()
  people = await fixture()
})

afterAll(() => {
  content.remove()
  delete process.env.CONTENT_DIR
  resetEnvForTests()
})

let chatNumber = 0

/** Asks in a new chat and returns the saved conversation once the answer is complete. */
async function ask(text: string, chatId = `chat-${++chatNumber}`) {
  const streamId = await startAnswer(db(), people.owner, { trigger: 'submit-message', chatId, text }, model)
  await waitForStream(db(), streamId)
  const { messages } = await getOwnChat(db(), people.owner, chatId)
  return { chatId, messages, answer: textOf(messages.at(-1) as UIMessage) }
}

describe('the built-in assistant answers from the person’s own tasks', () => {
  test('counts, by status, exactly', async () => {
    const { answer } = await ask('How many tasks do I have?')
    expect(answer).toBe('You own **6 tasks**: 3 Not Started, 2 In Progress, 1 Completed.')
  })

  test('what is in progress: their two, never others’ public or shared tasks', async () => {
    const { answer, messages } = await ask('What is in progress?')
    expect(answer).toMatch(/^You have \*\*2 tasks\*\* in “In Progress”:/)
    expect(answer).toContain('Write the quarterly report')
    expect(answer).toContain('Fix the login bug')
    expect(answer).not.toContain('Grace')
    // The tool call is part of the saved message, with its input and output.
    const toolPart = messages.at(-1)?.parts.find((part) => part.type === 'tool-listMyTasks')
    expect(toolPart).toMatchObject({ state: 'output-available', input: { status: 'In Progress' } })
  })

  test('lists by priority', async () => {
    const { answer } = await ask('List my high priority tasks')
    expect(answer).toMatch(/^You have \*\*2 tasks\*\* of high priority:/)
    expect(answer).toContain('Send the invoice to ACME')
    expect(answer).toContain('Write the quarterly report')
  })

  test('finds by words, and links each task', async () => {
    const { answer } = await ask('Find tasks about invoice')
    expect(answer).toMatch(/^2 tasks of yours match “invoice”:/)
    const [task] = await db().select().from(tasks).where(eq(tasks.text, 'Review invoice template'))
    expect(answer).toContain(`[Review invoice template](/task?task=${task?.id})`)
  })

  test('summarises the week: only tasks changed in the last 7 days', async () => {
    const { answer } = await ask('Summarise my week')
    expect(answer).toMatch(
      /^In the last 7 days you worked on \*\*4 tasks\*\*: 1 completed, 2 in progress, 1 not started\./,
    )
    expect(answer).not.toContain('Plan the offsite')
  })

  test('what is overdue and what is due today: by the day, never a Completed task', async () => {
    const overdue = await ask('What is overdue?')
    expect(overdue.answer).toMatch(/^\*\*1 task\*\* is overdue:/)
    expect(overdue.answer).toContain('Send the invoice to ACME')
    expect(overdue.answer).toContain('due 2020-01-06')
    expect(overdue.answer).not.toContain('Book flights')
    const today = await ask('What is due today?')
    expect(today.answer).toMatch(/^\*\*1 task\*\* is due today:/)
    expect(today.answer).toContain('Fix the login bug')
    expect((await ask('What is assigned to me?')).answer).toBe('Nothing is assigned to you.')
  })

  test('quotes the docs and links the page', async () => {
    const { answer } = await ask('What do the docs say about sharing?')
    expect(answer).toContain('Here is what the docs say about “sharing”:')
    expect(answer).toContain('> Share a task with named e-mail addresses')
    expect(answer).toContain('— [Sharing](/docs/sharing)')
  })

  test('says plainly that no model is connected, and how to connect one', async () => {
    const { answer } = await ask('Hello there')
    expect(answer).toContain('How many tasks do I have?')
    expect(answer).toContain(NO_MODEL_NOTICE)
  })
})

/** Answers the approval a tool of the chat's last answer asks for; the chat as saved after. */
async function decide(chatId: string, messages: UIMessage[], toolType: string, approved: boolean) {
  const part = messages.at(-1)?.parts.find((entry) => entry.type === toolType)
  const approvalId = (part as { approval: { id: string } }).approval.id
  const streamId = await startAnswer(
    db(),
    people.owner,
    { trigger: 'approve-tools', chatId, approvals: [{ id: approvalId, approved }] },
    model,
  )
  await waitForStream(db(), streamId)
  return (await getOwnChat(db(), people.owner, chatId)).messages
}

const taskNamed = async (text: string) => (await db().select().from(tasks).where(eq(tasks.text, text)))[0]

describe('tools that change data wait for approval', () => {
  test('a task is created only once the person approves', async () => {
    const { chatId, messages } = await ask('Create a task called Water the plants')
    const part = messages.at(-1)?.parts.find((entry) => entry.type === 'tool-createTask')
    expect(part).toMatchObject({ state: 'approval-requested', input: { text: 'Water the plants' } })
    expect(await taskNamed('Water the plants')).toBeUndefined()

    const saved = await decide(chatId, messages, 'tool-createTask', true)
    const created = await taskNamed('Water the plants')
    expect(created).toMatchObject({ userId: people.owner.id, status: 'Not Started' })
    expect(textOf(saved.at(-1) as UIMessage)).toBe(
      `Created [Water the plants](/task?task=${created?.id}) — Not Started, medium priority.`,
    )
  })

  test('a denied change changes nothing, and the assistant says so', async () => {
    const { chatId, messages } = await ask('Mark Book flights as in progress')
    const part = messages.at(-1)?.parts.find((entry) => entry.type === 'tool-setTaskStatus')
    expect(part).toMatchObject({ state: 'approval-requested', input: { status: 'In Progress' } })
    const saved = await decide(chatId, messages, 'tool-setTaskStatus', false)
    expect((await taskNamed('Book flights'))?.status).toBe('Completed')
    expect(textOf(saved.at(-1) as UIMessage)).toBe('Alright, I left the task as it was.')
  })

  test('an approved status change by name finds the task, then changes it', async () => {
    const { chatId, messages } = await ask('Mark Fix the login bug as done')
    const saved = await decide(chatId, messages, 'tool-setTaskStatus', true)
    const task = await taskNamed('Fix the login bug')
    expect(task?.status).toBe('Completed')
    expect(textOf(saved.at(-1) as UIMessage)).toBe(
      `[Fix the login bug](/task?task=${task?.id}) is now **Completed**.`,
    )
  })
})

describe('editing and regenerating', () => {
  test('editing the last message replaces it and drops the answer that followed', async () => {
    const { chatId, messages } = await ask('How many tasks do I have?')
    const [question, oldAnswer] = messages
    const streamId = await startAnswer(
      db(),
      people.owner,
      { trigger: 'submit-message', chatId, text: 'What is in progress?', messageId: question?.id },
      model,
    )
    await waitForStream(db(), streamId)
    const saved = (await getOwnChat(db(), people.owner, chatId)).messages
    expect(saved).toHaveLength(2)
    expect(saved[0]).toMatchObject({
      id: question?.id,
      parts: [{ type: 'text', text: 'What is in progress?' }],
    })
    expect(saved[1]?.id).not.toBe(oldAnswer?.id)
    expect(textOf(saved[1] as UIMessage)).toMatch(/in “In Progress”/)
  })

  test('regenerating answers the last message again, in place of the old answer', async () => {
    const { chatId, messages } = await ask('Summarise my week')
    const streamId = await startAnswer(db(), people.owner, { trigger: 'regenerate-message', chatId }, model)
    await waitForStream(db(), streamId)
    const saved = (await getOwnChat(db(), people.owner, chatId)).messages
    expect(saved.map((message) => message.role)).toEqual(['user', 'assistant'])
    expect(saved[1]?.id).not.toBe(messages[1]?.id)
    expect(textOf(saved[1] as UIMessage)).toBe(textOf(messages[1] as UIMessage))
  })
})
