import { MentionText } from '~/components/comments/mention-text'
import { cn } from '~/utils/cn'
import type { Mentionable } from '~/utils/mentions'

/**
 * A still of the product for the home page: the task list beside an open task with its comment
 * thread, drawn with the app's own badges, colours and texts (the demo workspace's "Ship the
 * public beta"). Plain markup with no state and no handlers, so it costs the home page no
 * JavaScript and reads the same with JavaScript off. Assistive technology gets one description
 * instead of a tour of pretend controls.
 */

type Priority = 'high' | 'medium' | 'low'
type Status = 'Not Started' | 'In Progress' | 'Completed'

const PRIORITY_CLASSES: Record<Priority, string> = {
  high: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200',
  medium: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  low: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
}

/** Status labels (docs/product-rules.md §4): Not Started → Backlog, In Progress → LFG, Completed → Done. */
const STATUS_LABELS: Record<Status, string> = {
  'Not Started': 'Backlog',
  'In Progress': 'LFG',
  Completed: 'Done',
}

const TASK_GROUPS: {
  title: string
  tasks: { text: string; priority: Priority; status: Status; hrs: number }[]
}[] = [
  {
    title: 'My tasks',
    tasks: [
      { text: 'Ship the public beta', priority: 'high', status: 'In Progress', hrs: 8 },
      { text: 'Redesign the onboarding checklist', priority: 'medium', status: 'Not Started', hrs: 5 },
      { text: 'Publish the November changelog', priority: 'low', status: 'Completed', hrs: 1 },
    ],
  },
  {
    title: 'Shared with me',
    tasks: [
      { text: 'Replace polling with server-sent events', priority: 'high', status: 'In Progress', hrs: 6 },
      { text: 'Accessibility pass on the task modal', priority: 'high', status: 'Not Started', hrs: 4 },
    ],
  },
]

type PreviewComment = {
  author: string
  time: string
  content: string
  isOwn?: boolean
  reactions: { emoji: string; count: number; isMine?: boolean }[]
  replies?: PreviewComment[]
}

const COMMENTS: PreviewComment[] = [
  {
    author: 'Ada Lovelace',
    time: '5h ago',
    content: '@Grace Hopper can you own the streams work before we open the beta?',
    isOwn: true,
    reactions: [
      { emoji: '👍', count: 1 },
      { emoji: '🔥', count: 1 },
    ],
    replies: [
      {
        author: 'Grace Hopper',
        time: '4h ago',
        content: 'Yes — SSE with polling as the fallback. @Ada Lovelace I will share the task with you.',
        reactions: [{ emoji: '❤️', count: 1, isMine: true }],
      },
      {
        author: 'Alan Turing',
        time: '3h ago',
        content: 'I can review the accessibility side in parallel.',
        reactions: [{ emoji: '✅', count: 1, isMine: true }],
      },
    ],
  },
  {
    author: 'Ada Lovelace',
    time: '45m ago',
    content: 'Pricing is settled; only the status page is left on my side.',
    isOwn: true,
    reactions: [],
  },
]

const DESCRIPTION =
  'Threadwork showing a task list grouped into My tasks and Shared with me, with priority and status badges, beside the open task "Ship the public beta": high priority, in progress, shared with Grace Hopper and Alan Turing, and a comment thread with an @mention, a reply and reactions.'

export function ProductPreview({ className }: { className?: string }) {
  return (
    <figure className={cn('relative', className)}>
      <div
        role="img"
        aria-label={DESCRIPTION}
        className="overflow-hidden rounded-xl border bg-background shadow-2xl shadow-primary/10 ring-1 ring-black/5 dark:ring-white/5"
      >
        <WindowBar />
        <div className="grid md:grid-cols-[minmax(0,0.9fr)_minmax(0,1.1fr)]">
          <TaskListPane />
          <TaskDetailsPane />
        </div>
      </div>
      <figcaption className="mt-4 text-center text-sm text-muted-foreground">
        The task list and an open task's thread, from the demo workspace.
      </figcaption>
    </figure>
  )
}

function WindowBar() {
  return (
    <div className="flex items-center gap-3 border-b bg-muted px-4 py-2.5">
      <div className="flex gap-1.5">
        <span className="size-3 rounded-full bg-red-400" />
        <span className="size-3 rounded-full bg-amber-400" />
        <span className="size-3 rounded-full bg-emerald-400" />
      </div>
      <div className="mx-auto w-full max-w-sm truncate rounded-md border bg-background px-3 py-1 text-center text-xs text-muted-foreground">
        threadwork.dev/task?task=ship-the-public-beta
      </div>
    </div>
  )
}

function TaskListPane() {
  return (
    <div className="hidden border-r bg-muted/40 p-4 md:block">
      <div className="flex items-center justify-between">
        <span className="text-sm font-semibold">Task List</span>
        <span className="rounded-md bg-primary px-2.5 py-1 text-xs font-medium text-primary-foreground">
          + New task
        </span>
      </div>
      {TASK_GROUPS.map((group) => (
        <div key={group.title} className="mt-4">
          <div className="text-xs font-medium uppercase tracking-wide text-muted-foreground">
            {group.title}
          </div>
          <div className="mt-2 space-y-2">
            {group.tasks.map((task, index) => (
              <div
                key={task.text}
                className={cn(
                  'rounded-lg border bg-card p-3',
                  group.title === 'My tasks' && index === 0 && 'border-primary ring-1 ring-primary',
                )}
              >
                <div className="flex items-start gap-2">
                  <StatusDot status={task.status} />
                  <span
                    className={cn(
                      'text-sm font-medium leading-5',
                      task.status === 'Completed' && 'text-muted-foreground line-through',
                    )}
                  >
                    {task.text}
                  </span>
                </div>
                <div className="mt-2 flex items-center gap-1.5 pl-6">
                  <PriorityBadge priority={task.priority} />
                  <StatusBadge status={task.status} />
                  <span className="ml-auto text-xs text-muted-foreground">{task.hrs}h</span>
                </div>
              </div>
            ))}
          </div>
        </div>
      ))}
    </div>
  )
}

function TaskDetailsPane() {
  return (
    <div className="p-5 sm:p-6">
      <div className="flex items-start justify-between gap-4">
        <div className="text-lg font-semibold leading-6">Ship the public beta</div>
        <span className="text-muted-foreground">✕</span>
      </div>
      <div className="mt-3 flex flex-wrap gap-1.5">
        <PriorityBadge priority="high" />
        <StatusBadge status="In Progress" />
      </div>
      <p className="mt-3 text-sm text-muted-foreground">
        Everything that has to be true before we open sign-ups to everyone.
      </p>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-xs">
        <dt className="text-muted-foreground">Visibility</dt>
        <dd>Private</dd>
        <dt className="text-muted-foreground">Created by</dt>
        <dd>Ada Lovelace</dd>
        <dt className="text-muted-foreground">Shared with</dt>
        <dd>Grace Hopper, Alan Turing</dd>
        <dt className="text-muted-foreground">Created</dt>
        <dd>November 10, 2026</dd>
      </dl>

      <div className="mt-5 border-t pt-4">
        <div className="text-sm font-semibold">Comments (4)</div>
        <div className="mt-3 space-y-3">
          {COMMENTS.map((comment) => (
            <PreviewCommentItem key={comment.content} comment={comment} />
          ))}
        </div>
        <div className="mt-4 rounded-md border bg-background px-3 py-2 text-sm text-muted-foreground">
          Add a comment... Type @ to mention someone
        </div>
        <div className="mt-1 text-xs text-muted-foreground">Press Cmd+Enter to send</div>
      </div>
    </div>
  )
}

function PreviewCommentItem({ comment, isReply = false }: { comment: PreviewComment; isReply?: boolean }) {
  return (
    <div className={cn(isReply && 'ml-8 border-l pl-3')}>
      <div className="flex items-center gap-2">
        <span className="inline-flex size-6 items-center justify-center rounded-full bg-accent text-[0.65rem] font-semibold">
          {comment.author[0]}
        </span>
        <span className="text-sm font-medium">{comment.author}</span>
        {comment.isOwn ? (
          <span className="rounded bg-primary/10 px-1.5 text-[0.65rem] font-medium text-primary">You</span>
        ) : null}
        <span className="text-xs text-muted-foreground">{comment.time}</span>
      </div>
      <p className="mt-1 pl-8 text-sm leading-5">
        <MentionText content={comment.content} users={PREVIEW_PEOPLE} />
      </p>
      <div className="mt-1.5 flex flex-wrap items-center gap-1 pl-8">
        {comment.reactions.map((reaction) => (
          <span
            key={reaction.emoji}
            className={cn(
              'inline-flex items-center gap-1 rounded-full border px-1.5 py-0.5 text-xs',
              reaction.isMine && 'border-primary bg-primary/10',
            )}
          >
            {reaction.emoji} {reaction.count}
          </span>
        ))}
        <span className="px-1.5 text-xs text-muted-foreground">Reply</span>
      </div>
      {comment.replies?.length ? (
        <div className="mt-2 space-y-2">
          {comment.replies.map((reply) => (
            <PreviewCommentItem key={reply.content} comment={reply} isReply />
          ))}
        </div>
      ) : null}
    </div>
  )
}

/** The people the preview's thread mentions, so the real highlighting rule marks their names. */
const PREVIEW_PEOPLE: Mentionable[] = [
  { id: 'ada', name: 'Ada Lovelace', email: '', image: null },
  { id: 'grace', name: 'Grace Hopper', email: '', image: null },
]

function PriorityBadge({ priority }: { priority: Priority }) {
  return (
    <span className={cn('rounded px-1.5 py-0.5 text-[0.65rem] font-semibold', PRIORITY_CLASSES[priority])}>
      {priority.toUpperCase()}
    </span>
  )
}

function StatusBadge({ status }: { status: Status }) {
  return (
    <span className="rounded border px-1.5 py-0.5 text-[0.65rem] font-medium text-muted-foreground">
      {STATUS_LABELS[status]}
    </span>
  )
}

function StatusDot({ status }: { status: Status }) {
  return (
    <span
      className={cn(
        'mt-0.5 inline-flex size-4 shrink-0 items-center justify-center rounded-full border text-[0.6rem]',
        status === 'Completed' && 'border-emerald-600 bg-emerald-600 text-white',
        status === 'In Progress' && 'border-primary',
      )}
    >
      {status === 'Completed' ? (
        '✓'
      ) : status === 'In Progress' ? (
        <span className="size-2 rounded-full bg-primary" />
      ) : null}
    </span>
  )
}
