import { z } from 'zod'
import { checkHealth } from '~/services/health.server'
import { ShareEmailsSchema, StatusSchema, TaskFieldsSchema, TaskUpdateSchema } from '~/services/task-schemas'
import {
  createTask,
  deleteTask,
  getTask,
  listVisibleTasks,
  setTaskStatus,
  shareTask,
  updateTask,
} from '~/services/tasks.server'
import { authed, base, mutation } from './base.server'

/**
 * Every procedure of /api/rpc (DESIGN.md §6.2). Reads are GET-able (`.route({ method: 'GET' })`);
 * mutations are POST only and carry the CSRF token. Each procedure is a thin adapter onto one
 * service function, which holds the rules and throws the domain errors clients see as codes.
 */
const TaskId = z.object({ taskId: z.string().min(1, 'taskId is required') })

const read = base.use(authed).route({ method: 'GET' })
const write = base.use(authed).use(mutation).route({ method: 'POST' })

export const router = {
  healthCheck: base.route({ method: 'GET' }).handler(({ context }) => checkHealth(context.db)),

  task: {
    getAll: read.handler(({ context }) => listVisibleTasks(context.db, context.user)),
    // Public tasks are readable without signing in, so `get` does not require a user.
    get: base
      .route({ method: 'GET' })
      .input(TaskId)
      .handler(async ({ context, input }) => (await getTask(context.db, context.user, input.taskId)).task),
    create: write
      .input(TaskFieldsSchema)
      .handler(({ context, input }) => createTask(context.db, context.user, input)),
    update: write
      .input(TaskId.extend(TaskUpdateSchema.shape))
      .handler(({ context, input: { taskId, ...changes } }) =>
        updateTask(context.db, context.user, taskId, changes),
      ),
    setStatus: write
      .input(TaskId.extend({ status: StatusSchema }))
      .handler(({ context, input }) => setTaskStatus(context.db, context.user, input.taskId, input.status)),
    share: write
      .input(TaskId.extend({ emails: ShareEmailsSchema }))
      .handler(({ context, input }) => shareTask(context.db, context.user, input.taskId, input.emails)),
    delete: write.input(TaskId).handler(async ({ context, input }) => {
      await deleteTask(context.db, context.user, input.taskId)
      return { success: true }
    }),
  },
}

export type Router = typeof router
