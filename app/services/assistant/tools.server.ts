import { type InferUITools, type ToolSet, tool } from 'ai'
import type { Database } from '~/db/client.server'
import { PRIORITIES, STATUSES } from '~/domain/constants'
import { searchDocs } from '~/services/content.server'
import { isDomainError } from '~/services/errors'
import type { SessionUser } from '~/services/session-user'
import { getTaskStats } from '~/services/stats.server'
import { TaskTextSchema } from '~/services/task-schemas'
import { listVisibleTasks } from '~/services/tasks/reads.server'
import type { TaskView } from '~/services/tasks/view'
import { createTask, setTaskStatus } from '~/services/tasks/writes.server'
import { z } from '~/utils/zod'

/**
 * What the assistant may do, for one person. The person is the session's, bound here when the
 * tools are built: no input a model writes can name another account, and every call goes through
 * the same services (and so the same permission rules) as the task pages. Tools that change data
 * need the person's approval before they run.
 */

export const TASKS_LISTED_MAX = 50
export const DOCS_QUOTED_MAX = 3

/** A task as the assistant sees it: enough to answer and to link, nothing about other people. */
export type TaskLine = {
  id: string
  title: string
  status: string
  priority: string
  updatedAt: string
  link: string
}

const toLine = (task: TaskView): TaskLine => ({
  id: task.id,
  title: task.text,
  status: task.status,
  priority: task.priority,
  updatedAt: task.updatedAt,
  link: `/task?task=${encodeURIComponent(task.id)}`,
})

/** The person's own tasks, the latest changed first (counts are of all of them, lists capped). */
async function ownTasks(db: Database, user: SessionUser) {
  const tasks = await listVisibleTasks(db, user)
  return tasks
    .filter((task) => task.userId === user.id)
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.id.localeCompare(b.id))
}

const listed = (tasks: TaskView[]) => ({
  total: tasks.length,
  tasks: tasks.slice(0, TASKS_LISTED_MAX).map(toLine),
})

/** A refusal of the services becomes the tool's answer, so the model can tell the person why. */
async function answerOrRefusal<T>(run: () => Promise<T>): Promise<T | { error: string }> {
  try {
    return await run()
  } catch (error) {
    if (isDomainError(error)) return { error: error.message }
    throw error
  }
}

export function chatTools(db: Database, user: SessionUser) {
  return {
    listMyTasks: tool({
      description:
        'List the tasks the person owns, the latest changed first, optionally only those of one status or priority, or changed in the last N days. `total` counts all matches; at most 50 are listed.',
      inputSchema: z.object({
        status: z.enum(STATUSES).optional(),
        priority: z.enum(PRIORITIES).optional(),
        changedWithinDays: z.number().int().min(1).max(366).optional(),
      }),
      execute: async ({ status, priority, changedWithinDays }) => {
        const since = changedWithinDays ? Date.now() - changedWithinDays * 24 * 60 * 60 * 1000 : null
        const tasks = (await ownTasks(db, user)).filter(
          (task) =>
            (!status || task.status === status) &&
            (!priority || task.priority === priority) &&
            (since === null || Date.parse(task.updatedAt) >= since),
        )
        return listed(tasks)
      },
    }),
    searchMyTasks: tool({
      description: "Find the person's own tasks whose title or details contain every word of the query.",
      inputSchema: z.object({ query: z.string().trim().min(1).max(200) }),
      execute: async ({ query }) => {
        const words = query.toLowerCase().split(/\s+/).filter(Boolean)
        const tasks = (await ownTasks(db, user)).filter((task) => {
          const haystack = `${task.text} ${task.details ?? ''}`.toLowerCase()
          return words.every((word) => haystack.includes(word))
        })
        return listed(tasks)
      },
    }),
    getMyStats: tool({
      description:
        'Count the tasks the person owns as their task list shows them (subtasks apart): in all, by status and by priority, with hours planned and completed.',
      inputSchema: z.object({}),
      execute: async () => (await getTaskStats(db, user)).own,
    }),
    searchDocs: tool({
      description:
        "Search Threadwork's documentation. Returns the best matching pages with a quote and a link; cite them.",
      inputSchema: z.object({ query: z.string().trim().min(1).max(200) }),
      execute: async ({ query }) => {
        const hits = await searchDocs(query)
        return {
          results: hits.slice(0, DOCS_QUOTED_MAX).map((hit) => ({
            title: hit.title,
            link: `/docs/${hit.path}`,
            quote: hit.snippet.map((part) => part.text).join(''),
          })),
        }
      },
    }),
    createTask: tool({
      description: 'Create a task owned by the person. Asks the person to approve first.',
      inputSchema: z.object({
        title: TaskTextSchema,
        priority: z.enum(PRIORITIES).optional(),
        status: z.enum(STATUSES).optional(),
      }),
      needsApproval: true,
      execute: async ({ title, priority, status }) =>
        answerOrRefusal(async () =>
          toLine(
            await createTask(db, user, {
              text: title,
              priority: priority ?? 'medium',
              status: status ?? 'Not Started',
              hrs: 1,
              isPublic: false,
              sharedWith: [],
            }),
          ),
        ),
    }),
    setTaskStatus: tool({
      description: "Change a task's status, by the task's id. Asks the person to approve first.",
      inputSchema: z.object({ taskId: z.string().min(1).max(100), status: z.enum(STATUSES) }),
      needsApproval: true,
      execute: async ({ taskId, status }) =>
        answerOrRefusal(async () => toLine(await setTaskStatus(db, user, taskId, status))),
    }),
  } satisfies ToolSet
}

export type ChatTools = ReturnType<typeof chatTools>
export type ChatToolParts = InferUITools<ChatTools>
