import { PRIORITIES, STATUSES, TASK_LIMITS } from '~/domain/constants'
import { z } from '~/utils/zod'

/**
 * A task's fields as every entry point accepts them: the /task forms (conform), the RPC inputs, the AI
 * assistant's tools and the service. Messages are what people read next to the field. Every limit
 * comes from `TASK_LIMITS`, which the forms give the browser too.
 */
const { text, details, refLink, hrs, sharedWith } = TASK_LIMITS

export const MAX_SHARES = sharedWith.maxItems

export const TaskTextSchema = z
  .string({ error: 'Title is required' })
  .trim()
  .min(1, 'Title is required')
  .min(text.minLength, `Title must be at least ${text.minLength} characters`)
  .max(text.maxLength, `Title must be at most ${text.maxLength} characters`)

export const DetailsSchema = z
  .string()
  .trim()
  .max(details.maxLength, `Details must be at most ${details.maxLength} characters`)

const RefLinkSchema = z
  .string()
  .trim()
  .max(refLink.maxLength, 'Link is too long')
  .pipe(z.url({ protocol: /^https?$/, error: 'Link must be an http(s) URL' }))

const PrioritySchema = z.enum(PRIORITIES, { error: 'Priority must be high, medium or low' })
export const StatusSchema = z.enum(STATUSES, {
  error: 'Status must be Not Started, In Progress or Completed',
})
const HRS_MESSAGE = `Hours must be a whole number from ${hrs.min} to ${hrs.max}`
export const HrsSchema = z.coerce
  .number({ error: HRS_MESSAGE })
  .multipleOf(hrs.step, HRS_MESSAGE)
  .min(hrs.min, HRS_MESSAGE)
  .max(hrs.max, HRS_MESSAGE)

const DUE_DATE_MESSAGE = 'Due date must be a real date (YYYY-MM-DD)'
/** A calendar day, `YYYY-MM-DD`, that exists: no time, no zone (a datetime is refused). */
const DueDateSchema = z
  .string({ error: DUE_DATE_MESSAGE })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, DUE_DATE_MESSAGE)
  .refine((value) => {
    const [year, month, day] = value.split('-').map(Number) as [number, number, number]
    const date = new Date(Date.UTC(year, month - 1, day))
    return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  }, DUE_DATE_MESSAGE)

export const ShareEmailsSchema = z
  .array(z.string().trim().toLowerCase().pipe(z.email('Enter valid e-mail addresses')))
  .max(MAX_SHARES, `Share with at most ${MAX_SHARES} people`)
  .transform((emails) => [...new Set(emails)])

/** "a@x.com, b@y.com" or one per line, as typed into the share field. */
export function splitEmails(value: unknown): unknown {
  if (typeof value !== 'string') return value
  return value
    .split(/[\s,;]+/)
    .map((part) => part.trim())
    .filter(Boolean)
}

/** A workspace's id, as every entry point takes it (`organization.id` to better-auth's clients). */
export const WorkspaceIdSchema = z
  .string({ error: 'Choose a workspace' })
  .trim()
  .min(1, 'Choose a workspace')
  .max(100)

/** The workspace a read is narrowed to (`task.getAll`, `task.getTaskStats`); absent: all of the caller's. */
export const InWorkspaceSchema = z.object({ workspaceId: WorkspaceIdSchema.optional() })

const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value)

export const TaskFieldsSchema = z.object({
  text: TaskTextSchema,
  details: z.preprocess(emptyToUndefined, DetailsSchema.optional()),
  refLink: z.preprocess(emptyToUndefined, RefLinkSchema.optional()),
  priority: PrioritySchema.default('medium'),
  status: StatusSchema.default('Not Started'),
  hrs: HrsSchema.default(1),
  dueDate: z.preprocess(emptyToUndefined, DueDateSchema.optional()),
  isPublic: z
    .preprocess((value) => value === 'on' || value === 'true' || value === true, z.boolean())
    .default(false),
  parentTaskId: z.preprocess(emptyToUndefined, z.string().min(1).optional()),
  /** The owner's own id, or a verified person among `sharedWith`; absent or empty: nobody. */
  assigneeId: z.preprocess(emptyToUndefined, z.string().min(1).optional()),
  sharedWith: z.preprocess(splitEmails, ShareEmailsSchema).default([]),
  /** One of the creator's workspaces; absent: the one they work in (their active, else personal). */
  workspaceId: z.preprocess(emptyToUndefined, WorkspaceIdSchema.optional()),
})

export type TaskFields = z.output<typeof TaskFieldsSchema>
export type TaskInput = z.input<typeof TaskFieldsSchema>

/** Which task a call is about: the task-id argument of every entry point. */
export const TaskIdSchema = z.object({ taskId: z.string().min(1, 'taskId is required') })

/** An update changes only what it names; absent fields stay as they are. */
export const TaskUpdateSchema = z.object({
  text: TaskTextSchema.optional(),
  details: z.preprocess((value) => (value === '' ? null : value), DetailsSchema.nullable().optional()),
  refLink: z.preprocess((value) => (value === '' ? null : value), RefLinkSchema.nullable().optional()),
  priority: PrioritySchema.optional(),
  status: StatusSchema.optional(),
  hrs: HrsSchema.optional(),
  /** Empty or null clears it. */
  dueDate: z.preprocess((value) => (value === '' ? null : value), DueDateSchema.nullable().optional()),
  isPublic: z.preprocess(
    (value) => (value === 'on' || value === 'true' ? true : value === 'false' ? false : value),
    z.boolean().optional(),
  ),
  parentTaskId: z.preprocess(
    (value) => (value === '' ? null : value),
    z.string().min(1).nullable().optional(),
  ),
  /** Empty or null: nobody (the one change the assignee may make, handing it back). */
  assigneeId: z.preprocess((value) => (value === '' ? null : value), z.string().min(1).nullable().optional()),
  sharedWith: z.preprocess(splitEmails, ShareEmailsSchema.optional()),
  /** Another of the editor's workspaces, to move it there with its subtasks. */
  workspaceId: z.preprocess(emptyToUndefined, WorkspaceIdSchema.optional()),
})

export type TaskUpdate = z.output<typeof TaskUpdateSchema>

/**
 * What the task list may be narrowed to and how it is ordered (`TaskFilters`,
 * app/services/tasks/list.server.ts): the /task page reads it from its URL, leniently, and the
 * MCP tool `list_tasks` takes it as its arguments.
 */
export const TaskListFiltersSchema = z.object({
  status: StatusSchema.optional(),
  priority: PrioritySchema.optional(),
  due: z.enum(['overdue', 'week'], { error: 'Due must be overdue or week' }).optional(),
  assignee: z.enum(['me'], { error: 'Assignee can only be me' }).optional(),
  sort: z.enum(['due'], { error: 'Sort can only be due' }).optional(),
})
