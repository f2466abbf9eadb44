import { expect } from '@playwright/test'
import type { TaskFields } from '../../app/services/tasks/task-schemas'
import type { NewPerson, Person } from './fixtures'
import { uniqueTitle } from './unique'

/**
 * Tasks and comments made, and mentions read, through the RPC endpoint in a person's own session:
 * for journeys about what happens to them afterwards (the forms that make them have journeys of
 * their own).
 */

/** What task.create takes, as its schema says (its output: what every entry point accepts as JSON). */
export type TaskInput = Pick<TaskFields, 'text'> & Partial<TaskFields>

export async function createTaskThroughApi(person: Person, input: TaskInput): Promise<{ id: string }> {
  const token = await person.client.csrf()
  const response = await person.client.post(
    '/api/rpc/task/create',
    { json: { json: input } },
    { 'x-csrf-token': token },
  )
  if (response.status !== 200) throw new Error(`task.create failed: ${response.status} ${response.body}`)
  return (JSON.parse(response.body) as { json: { id: string } }).json
}

/** Ada and Grace, and a private task of Ada's shared with Grace. */
export async function sharedTask(newPerson: NewPerson, project: string, label: string) {
  const [ada, grace] = await Promise.all([newPerson('Ada'), newPerson('Grace')])
  const text = uniqueTitle(label, project)
  const { id } = await createTaskThroughApi(ada, { text, sharedWith: [grace.email] })
  return { ada, grace, id, text }
}

export async function addCommentThroughApi(
  person: Person,
  input: { taskId: string; content: string; parentCommentId?: string },
): Promise<{ id: string }> {
  const token = await person.client.csrf()
  const response = await person.client.post(
    '/api/rpc/comments/addComment',
    { json: { json: input } },
    { 'x-csrf-token': token },
  )
  if (response.status !== 200)
    throw new Error(`comments.addComment failed: ${response.status} ${response.body}`)
  return (JSON.parse(response.body) as { json: { id: string } }).json
}

export type UnreadMention = {
  id: string
  taskId: string
  fromUserName: string
  content: string
  isRead: boolean
}

/** `comments.getMentionNotifications`, asked in the person's own session. */
async function unreadMentions(person: Person): Promise<UnreadMention[]> {
  const response = await person.client.get('/api/rpc/comments/getMentionNotifications')
  expect(response.status, response.body).toBe(200)
  return (JSON.parse(response.body) as { json: UnreadMention[] }).json
}

/** Their unread mentions on one task. */
export async function unreadMentionsOn(person: Person, taskId: string) {
  return (await unreadMentions(person)).filter((mention) => mention.taskId === taskId)
}
