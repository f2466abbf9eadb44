import { listSavedChats } from '~/services/chats.server'
import { toggleReaction } from '~/services/comment-reactions.server'
import {
  CommentEditSchema,
  NewCommentSchema,
  NotificationIdSchema,
  ReactionSchema,
} from '~/services/comment-schemas'
import { listComments } from '~/services/comment-views.server'
import { addComment, deleteComment, updateComment } from '~/services/comments.server'
import { checkHealth } from '~/services/health.server'
import { mentionableUsers } from '~/services/mentions.server'
import { listUnreadMentions, markNotificationRead } from '~/services/notifications.server'
import { search } from '~/services/search.server'
import { SearchInputSchema } from '~/services/search-query'
import {
  getMostRecentCompleted,
  getMostRecentCreated,
  getProductivityInsights,
  getTaskStats,
} from '~/services/stats.server'
import { getTask, listVisibleTasks } from '~/services/tasks/reads.server'
import {
  InWorkspaceSchema,
  ShareEmailsSchema,
  StatusSchema,
  TaskFieldsSchema,
  TaskIdSchema,
  TaskUpdateSchema,
  WorkspaceIdSchema,
} from '~/services/tasks/task-schemas'
import { createTask, deleteTask, setTaskStatus, shareTask, updateTask } from '~/services/tasks/writes.server'
import { personalWorkspaceId, requireMembership } from '~/services/workspaces/membership.server'
import { getWorkspace, listMembers, listWorkspaces } from '~/services/workspaces/reads.server'
import { timeZoneFrom } from '~/utils/time-zone.server'
import { z } from '~/utils/zod'
import { authed, base, mutation } from './base.server'

/**
 * Every procedure of /api/rpc (docs/product-rules.md §5). Reads are GET-able (`.route({ method: 'GET' })`);
 * mutations are POST only and carry the CSRF token. Each procedure is a thin adapter onto one
 * service function, which holds the rules and throws the domain errors clients see as codes.
 */
const CommentId = CommentEditSchema.pick({ commentId: true })
const WorkspaceId = z.object({ workspaceId: WorkspaceIdSchema })
/** Reads that take no input, or a workspace to narrow to: callers that send nothing still may. */
const InWorkspace = InWorkspaceSchema.optional()

const read = base.use(authed).route({ method: 'GET' })
const write = base.use(authed).use(mutation).route({ method: 'POST' })

export const router = {
  healthCheck: base.route({ method: 'GET' }).handler(({ context }) => checkHealth(context.db)),

  task: {
    // Everything the caller may see, or only what they may see of one of their workspaces.
    getAll: read
      .input(InWorkspace)
      .handler(({ context, input }) => listVisibleTasks(context.db, context.user, input?.workspaceId)),
    // Public tasks are readable without signing in, so `get` does not require a user.
    get: base
      .route({ method: 'GET' })
      .input(TaskIdSchema)
      .handler(async ({ context, input }) => (await getTask(context.db, context.user, input.taskId)).task),
    create: write
      .input(TaskFieldsSchema)
      .handler(({ context, input }) => createTask(context.db, context.user, input)),
    update: write
      .input(TaskIdSchema.extend(TaskUpdateSchema.shape))
      .handler(({ context, input: { taskId, ...changes } }) =>
        updateTask(context.db, context.user, taskId, changes),
      ),
    setStatus: write
      .input(TaskIdSchema.extend({ status: StatusSchema }))
      .handler(({ context, input }) => setTaskStatus(context.db, context.user, input.taskId, input.status)),
    share: write
      .input(TaskIdSchema.extend({ emails: ShareEmailsSchema }))
      .handler(({ context, input }) => shareTask(context.db, context.user, input.taskId, input.emails)),
    delete: write.input(TaskIdSchema).handler(async ({ context, input }) => {
      await deleteTask(context.db, context.user, input.taskId)
      return { success: true }
    }),
    // Tasks and comments the caller may see, by the words they typed (app/services/search.server.ts).
    search: read
      .input(SearchInputSchema)
      .handler(({ context, input }) => search(context.db, context.user, input)),
    getTaskUsers: read
      .input(TaskIdSchema)
      .handler(({ context, input }) => mentionableUsers(context.db, context.user, input.taskId)),
    // The dashboard's reads. Weeks follow the caller's time zone, from the `tz` cookie (else UTC).
    // The person's personal workspace's, or one of their other workspaces' (NOT_FOUND for any other).
    getTaskStats: read.input(InWorkspace).handler(async ({ context, input }) => {
      const workspaceId = input?.workspaceId ?? personalWorkspaceId(context.user)
      await requireMembership(context.db, context.user.id, workspaceId)
      return getTaskStats(context.db, context.user, workspaceId)
    }),
    getProductivityInsights: read.handler(({ context }) =>
      getProductivityInsights(context.db, context.user, personalWorkspaceId(context.user), {
        timeZone: timeZoneFrom(context.headers),
      }),
    ),
    getMostRecentCompleted: read.handler(({ context }) =>
      getMostRecentCompleted(context.db, context.user, personalWorkspaceId(context.user)),
    ),
    getMostRecentCreated: read.handler(({ context }) =>
      getMostRecentCreated(context.db, context.user, personalWorkspaceId(context.user)),
    ),
  },

  comments: {
    // Public tasks' discussions are readable without signing in, like the tasks themselves.
    getComments: base
      .route({ method: 'GET' })
      .input(TaskIdSchema)
      .handler(({ context, input }) => listComments(context.db, context.user, input.taskId)),
    addComment: write.input(NewCommentSchema).handler(async ({ context, input }) => {
      const { comment, notified } = await addComment(context.db, context.user, input)
      return { ...comment, notified }
    }),
    updateComment: write
      .input(CommentEditSchema)
      .handler(({ context, input }) =>
        updateComment(context.db, context.user, input.commentId, input.content),
      ),
    deleteComment: write.input(CommentId).handler(async ({ context, input }) => {
      await deleteComment(context.db, context.user, input.commentId)
      return { success: true }
    }),
    addReaction: write
      .input(ReactionSchema)
      .handler(({ context, input }) =>
        toggleReaction(context.db, context.user, input.commentId, input.reactionType),
      ),
    getMentionNotifications: read.handler(({ context }) => listUnreadMentions(context.db, context.user)),
    markNotificationAsRead: write
      .input(z.object({ notificationId: NotificationIdSchema }))
      .handler(async ({ context, input }) => {
        await markNotificationRead(context.db, context.user, input.notificationId)
        return { success: true }
      }),
  },

  // The caller's workspaces; one they are not in answers NOT_FOUND exactly as an unknown id.
  workspace: {
    list: read.handler(({ context }) => listWorkspaces(context.db, context.user)),
    get: read
      .input(WorkspaceId)
      .handler(({ context, input }) => getWorkspace(context.db, context.user, input.workspaceId)),
    members: read
      .input(WorkspaceId)
      .handler(({ context, input }) => listMembers(context.db, context.user, input.workspaceId)),
  },

  ai: {
    getSavedChats: read.handler(({ context }) => listSavedChats(context.db, context.user)),
  },
}

export type Router = typeof router
