import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js'
import type { Database } from '~/db/client.server'
import { NewCommentSchema, NotificationIdSchema } from '~/services/comment-schemas'
import { listComments } from '~/services/comment-views.server'
import { addComment } from '~/services/comments.server'
import {
  listUnreadMentions,
  markAllMentionsRead,
  markNotificationRead,
} from '~/services/notifications.server'
import { search } from '~/services/search.server'
import { SearchInputSchema } from '~/services/search-query'
import type { SessionUser } from '~/services/session-user'
import { listTaskGroups } from '~/services/tasks/list.server'
import { getTask } from '~/services/tasks/reads.server'
import {
  InWorkspaceSchema,
  TaskFieldsSchema,
  TaskIdSchema,
  TaskListFiltersSchema,
  TaskUpdateSchema,
} from '~/services/tasks/task-schemas'
import { createTask, setTaskStatus, updateTask } from '~/services/tasks/writes.server'
import { personalWorkspaceId, requireMembership } from '~/services/workspaces/membership.server'
import { listWorkspaces } from '~/services/workspaces/reads.server'
import { z } from '~/utils/zod'

/**
 * The tools /mcp offers an agent: each a thin call into the service the RPC endpoint and the pages
 * call, with the token's person as the actor, so an agent lives by exactly their rules. Inputs
 * are the services' own zod schemas, whole, as the RPC endpoint takes them, so a field added to a
 * schema reaches its tool (a test compares each tool's input with its schema); `isReadOnly` is the one fact the annotations and the refusal
 * of a `read` token both come from (app/mcp/server.server.ts).
 */

type ToolContext = { db: Database; user: SessionUser; today: string }

export type ToolDefinition = {
  title: string
  description: string
  inputSchema: z.ZodObject
  isReadOnly: boolean
  /** MCP's hints beyond read-only: whether a call may overwrite or remove, and whether repeating it is harmless. */
  hints?: Pick<ToolAnnotations, 'destructiveHint' | 'idempotentHint'>
  run: (context: ToolContext, input: never) => Promise<unknown>
}

/** The update tool's flat arguments, as task.update takes them: the task, and any field of an update. */
const UpdateTaskInput = TaskIdSchema.extend(TaskUpdateSchema.shape)

function tool<Input extends z.ZodObject>(
  definition: Omit<ToolDefinition, 'inputSchema' | 'run'> & {
    inputSchema: Input
    run: (context: ToolContext, input: z.output<Input>) => Promise<unknown>
  },
): ToolDefinition {
  return definition as ToolDefinition
}

export const TOOLS = {
  list_workspaces: tool({
    title: 'List workspaces',
    description:
      'The workspaces this person is in, their personal one first, each with its id, name, slug, their role and its number of members. Give a workspace’s `workspaceId` to list_tasks, search or create_task to work in it; without one, search covers all of them and list_tasks and create_task work in the personal one.',
    inputSchema: z.object({}),
    isReadOnly: true,
    run: async ({ db, user }) => ({ workspaces: await listWorkspaces(db, user) }),
  }),
  list_tasks: tool({
    title: 'List tasks',
    description:
      'The tasks this person may see, as their task list shows them: those of one of their workspaces (their personal one unless `workspaceId`, from list_workspaces, names another; newest first, 50 at a time), those shared with them from other workspaces, and other people’s public tasks. Narrow by status, priority, due (overdue, or due this week), assignee ("me"), and sort by due date.',
    inputSchema: TaskListFiltersSchema.extend({
      page: z.number().int().min(1).default(1).describe('Page of the workspace’s tasks, 50 a page'),
      ...InWorkspaceSchema.shape,
    }),
    isReadOnly: true,
    // The person's personal workspace unless another of theirs is named; one they are not in answers as an unknown one.
    run: async ({ db, user, today }, { page, workspaceId, ...filters }) => {
      if (workspaceId) await requireMembership(db, user.id, workspaceId)
      const worksIn = workspaceId ?? personalWorkspaceId(user)
      return listTaskGroups(db, user, worksIn, filters, { limit: 50, offset: (page - 1) * 50 }, today)
    },
  }),
  search: tool({
    title: 'Search tasks and comments',
    description:
      'Finds tasks and comments this person may see by the words typed, best matches first, in every workspace of theirs or in one (`workspaceId`); matched words are marked in the parts returned.',
    inputSchema: SearchInputSchema,
    isReadOnly: true,
    run: ({ db, user }, input) => search(db, user, input),
  }),
  get_task: tool({
    title: 'Get a task',
    description:
      'One task this person may see, with every field, and its discussion (comments and replies, oldest first).',
    inputSchema: TaskIdSchema,
    isReadOnly: true,
    run: async ({ db, user }, { taskId }) => {
      const { task } = await getTask(db, user, taskId)
      return { task, comments: await listComments(db, user, taskId) }
    },
  }),
  create_task: tool({
    title: 'Create a task',
    description:
      'Creates a task owned by this person, in one of their workspaces (`workspaceId`, from list_workspaces; their personal one without it). Only `text` (the title) is required; status, priority, hours, due date (YYYY-MM-DD), details, a link, sharing by e-mail and an assignee are optional.',
    inputSchema: TaskFieldsSchema,
    isReadOnly: false,
    hints: { destructiveHint: false, idempotentHint: false },
    run: ({ db, user }, input) => createTask(db, user, input),
  }),
  update_task: tool({
    title: 'Update a task',
    description:
      'Changes what is given of a task and leaves the rest: any field create_task takes, such as the title (`text`), details, status, priority, due date (YYYY-MM-DD, empty to clear) and assignee (a person’s id, empty for nobody). The owner may change anything; someone it is shared with may only change its status.',
    inputSchema: UpdateTaskInput,
    isReadOnly: false,
    hints: { destructiveHint: true, idempotentHint: true },
    run: ({ db, user }, { taskId, ...changes }) => {
      const named = Object.entries(changes).filter(([, value]) => value !== undefined)
      // A status alone is what people a task is shared with may change, as on the page.
      if (named.length === 1 && changes.status) return setTaskStatus(db, user, taskId, changes.status)
      return updateTask(db, user, taskId, changes)
    },
  }),
  add_comment: tool({
    title: 'Add a comment',
    description:
      'Comments on a task this person may comment on, or replies to a comment (`parentCommentId`). `mentions` lists the e-mail addresses of people to notify; only people who may see the task can be mentioned.',
    inputSchema: NewCommentSchema,
    isReadOnly: false,
    hints: { destructiveHint: false, idempotentHint: false },
    run: async ({ db, user }, input) => {
      const { comment, notified } = await addComment(db, user, input)
      return { ...comment, notified }
    },
  }),
  list_notifications: tool({
    title: 'List unread notifications',
    description: 'This person’s unread notifications (mentions in comments), newest first.',
    inputSchema: z.object({}),
    isReadOnly: true,
    run: async ({ db, user }) => ({ notifications: await listUnreadMentions(db, user) }),
  }),
  mark_notifications_read: tool({
    title: 'Mark notifications read',
    description: 'Marks one notification read (`notificationId`), or, without it, every unread one.',
    inputSchema: z.object({ notificationId: NotificationIdSchema.optional() }),
    isReadOnly: false,
    hints: { destructiveHint: false, idempotentHint: true },
    run: async ({ db, user }, { notificationId }) => {
      if (notificationId) {
        await markNotificationRead(db, user, notificationId)
        return { marked: 1 }
      }
      return { marked: await markAllMentionsRead(db, user, new Date()) }
    },
  }),
} satisfies Record<string, ToolDefinition>

export type ToolName = keyof typeof TOOLS
