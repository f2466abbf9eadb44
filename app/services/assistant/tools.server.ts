import { type ToolSet, tool } from 'ai'
import type { Database } from '~/db/client.server'
import { PRIORITIES, SEARCH_LIMITS, STATUSES } from '~/domain/constants'
import { searchDocs } from '~/services/content.server'
import { isDomainError } from '~/services/errors'
import { searchOwnTasks } from '~/services/search.server'
import { SearchInputSchema } from '~/services/search-query'
import type { SessionUser } from '~/services/session-user'
import { getTaskStats } from '~/services/stats.server'
import { listVisibleTasks } from '~/services/tasks/reads.server'
import { StatusSchema, TaskFieldsSchema, TaskIdSchema, TaskUpdateSchema } from '~/services/tasks/task-schemas'
import type { TaskView } from '~/services/tasks/view'
import { TASK_VIEW_FIELDS, type TaskViewField } from '~/services/tasks/view-fields'
import { createTask, setTaskStatus, updateTask } from '~/services/tasks/writes.server'
import { personalWorkspaceId } from '~/services/workspaces/membership.server'
import { DEFAULT_TIME_ZONE, todayIn } from '~/utils/calendar'
import { DUE_WINDOWS, isDueWithin } from '~/utils/due-date'
import { withholding, z } from '~/utils/zod'

/**
 * What the assistant may do, for one person. The person is the session's, bound here when the
 * tools are built: no input a model writes can name another account, and every call goes through
 * the same services (and so the same permission rules) as the task pages. Tools that change data
 * need the person's approval before they run.
 */

const TASKS_LISTED_MAX = 50
const DOCS_QUOTED_MAX = 3

/**
 * What the assistant is not told of a task, and why: what it says about other people. Everything
 * else of the task view reaches the tools, so a field added to the view reaches them too, unless it
 * is named here with its reason.
 */
export const WITHHELD_FROM_ASSISTANT = {
  sharedWith: 'whom a task is shared with is its owner’s to know, and a chat may be made public',
  sharedWithNames: 'the people a task is shared with are not the assistant’s to name',
  ownerName: 'a task shared with the person is another person’s',
  userId: 'a task shared with the person is another person’s',
  workspaceId:
    'a personal workspace has its owner’s account id, and another team’s workspace is not the person’s to learn',
  assigneeName:
    'the people a task is assigned to are not the assistant’s to name (`assignedToYou` says if it is the person)',
  assigneeImage: 'the people a task is assigned to are not the assistant’s to name',
  assigneeId: 'another person’s id says nothing to the person (`assignedToYou` says if it is theirs)',
} satisfies Partial<Record<TaskViewField, string>>

type AssistantField = Exclude<TaskViewField, keyof typeof WITHHELD_FROM_ASSISTANT>

export const ASSISTANT_TASK_FIELDS = TASK_VIEW_FIELDS.filter(
  (field): field is AssistantField => !Object.hasOwn(WITHHELD_FROM_ASSISTANT, field),
)

/**
 * A task as the assistant sees it: the view's fields but the withheld, whether it is assigned to
 * the person, and a link to open it.
 */
export type AssistantTask = Pick<TaskView, AssistantField> & { assignedToYou: boolean; link: string }

const toAssistantTask = (task: TaskView, user: SessionUser): AssistantTask => ({
  ...(Object.fromEntries(ASSISTANT_TASK_FIELDS.map((field) => [field, task[field]])) as Pick<
    TaskView,
    AssistantField
  >),
  assignedToYou: task.assigneeId === user.id,
  link: `/task?task=${encodeURIComponent(task.id)}`,
})

/**
 * What each tool's input leaves out of its service's schema, and why. Everything else of the schema
 * reaches the model, so a field added to a service's schema reaches its tool too, unless it is named
 * here with its reason (a test compares every tool's input with its service's schema).
 */
export const WITHHELD_FROM_ASSISTANT_INPUT = {
  createTask: {
    sharedWith: 'sharing reaches other people’s inboxes, so the person does it on the task page',
  },
  updateTask: {
    sharedWith: 'sharing reaches other people’s inboxes, so the person does it on the task page',
  },
  searchMyTasks: {
    limit: `the tool lists at most ${TASKS_LISTED_MAX} tasks, whatever a model asks`,
    workspaceId: 'the assistant is not told workspaces’ ids, so it searches all of the person’s own tasks',
  },
} as const

const NEW_TASK_INPUT = withholding(TaskFieldsSchema, WITHHELD_FROM_ASSISTANT_INPUT.createTask)
const TASK_CHANGES_INPUT = TaskIdSchema.extend(
  withholding(TaskUpdateSchema, WITHHELD_FROM_ASSISTANT_INPUT.updateTask).shape,
)
/** The model is told a query's limits up front, as a form would be; the service would refuse it anyway. */
const SEARCH_INPUT = withholding(SearchInputSchema, WITHHELD_FROM_ASSISTANT_INPUT.searchMyTasks).extend({
  query: SearchInputSchema.shape.query.trim().min(1).max(SEARCH_LIMITS.query.maxLength),
})

/**
 * The person's own tasks, or those assigned to them (theirs or shared with them), the latest
 * changed first (counts are of all of them, lists capped).
 */
async function ownTasks(db: Database, user: SessionUser, assignedToMe = false) {
  const tasks = await listVisibleTasks(db, user)
  return tasks
    .filter((task) => (assignedToMe ? task.assigneeId === user.id : task.userId === user.id))
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.id.localeCompare(b.id))
}

/** A refusal of the services becomes the tool's answer, so the model can tell the person why. */
async function answerOrRefusal<T>(run: () => Promise<T>): Promise<T | { error: string }> {
  try {
    return await run()
  } catch (error) {
    if (isDomainError(error)) return { error: error.message }
    throw error
  }
}

/**
 * The tools, for one person in their time zone (the one their browser reports): "today", "overdue"
 * and "this week" are theirs.
 */
export function chatTools(db: Database, user: SessionUser, timeZone = DEFAULT_TIME_ZONE) {
  const listed = (tasks: TaskView[]) => ({
    total: tasks.length,
    tasks: tasks.slice(0, TASKS_LISTED_MAX).map((task) => toAssistantTask(task, user)),
  })
  return {
    listMyTasks: tool({
      description:
        "List the tasks the person owns — or, with `assignedToMe`, those assigned to them, theirs or shared with them — the latest changed first, optionally only those of one status or priority, changed in the last N days, or due: `overdue` (its day has passed), `today`, or `week` (from today through Sunday), in the person's own time zone and never Completed ones. `dueDate` is a calendar day, YYYY-MM-DD. `total` counts all matches; at most 50 are listed, each with its fields (`text` is its title) and a link.",
      inputSchema: z.object({
        status: z.enum(STATUSES).optional(),
        priority: z.enum(PRIORITIES).optional(),
        changedWithinDays: z.number().int().min(1).max(366).optional(),
        due: z.enum(DUE_WINDOWS).optional(),
        assignedToMe: z.boolean().optional(),
      }),
      execute: async ({ status, priority, changedWithinDays, due, assignedToMe }) => {
        const since = changedWithinDays ? Date.now() - changedWithinDays * 24 * 60 * 60 * 1000 : null
        const today = todayIn(timeZone)
        const tasks = (await ownTasks(db, user, assignedToMe)).filter(
          (task) =>
            (!status || task.status === status) &&
            (!priority || task.priority === priority) &&
            (since === null || Date.parse(task.updatedAt) >= since) &&
            (!due || isDueWithin(due, task, today)),
        )
        return listed(tasks)
      },
    }),
    searchMyTasks: tool({
      description: "Find the person's own tasks whose title or details contain every word of the query.",
      inputSchema: SEARCH_INPUT,
      // The search the pages use, over every searched field, narrowed to the person's own tasks.
      execute: async (input) => {
        const found = await searchOwnTasks(db, user, { ...input, limit: TASKS_LISTED_MAX })
        const own = new Map((await ownTasks(db, user)).map((task) => [task.id, task]))
        return listed(found.tasks.flatMap((hit) => own.get(hit.id) ?? []))
      },
    }),
    getMyStats: tool({
      description:
        'Count the tasks the person owns as their task list shows them (subtasks apart): in all, by status and by priority, with hours planned and completed.',
      inputSchema: z.object({}),
      execute: async () => (await getTaskStats(db, user, personalWorkspaceId(user))).own,
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
      description:
        'Create a task owned by the person; `text` is its title. Asks the person to approve first.',
      inputSchema: NEW_TASK_INPUT,
      needsApproval: true,
      execute: async (fields) =>
        answerOrRefusal(async () =>
          toAssistantTask(await createTask(db, user, { ...fields, sharedWith: [] }), user),
        ),
    }),
    updateTask: tool({
      description:
        "Change a task the person owns, by the task's id: only the fields given change (`text` is its title; null clears details, link or parent). Asks the person to approve first.",
      inputSchema: TASK_CHANGES_INPUT,
      needsApproval: true,
      execute: async ({ taskId, ...changes }) =>
        answerOrRefusal(async () => toAssistantTask(await updateTask(db, user, taskId, changes), user)),
    }),
    setTaskStatus: tool({
      description: "Change a task's status, by the task's id. Asks the person to approve first.",
      inputSchema: TaskIdSchema.extend({ status: StatusSchema }),
      needsApproval: true,
      execute: async ({ taskId, status }) =>
        answerOrRefusal(async () => toAssistantTask(await setTaskStatus(db, user, taskId, status), user)),
    }),
  } satisfies ToolSet
}
