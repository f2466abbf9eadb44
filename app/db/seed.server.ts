import { count } from 'drizzle-orm'
import type { Priority, ReactionType, Status } from '~/domain/constants'
import type { WorkspaceRole } from '~/domain/workspaces'
import { addDays, DEFAULT_TIME_ZONE, isoDate, localDateOf } from '~/utils/calendar'
import { hashPassword } from '~/utils/crypto.server'
import type { Database } from './client.server'
import {
  commentReactions,
  comments,
  notifications,
  taskShares,
  tasks,
  users,
  workspaceMembers,
  workspaces,
} from './schema'
import { commitAfterReading } from './write.server'

/**
 * The demo `npm run demo` and `npm run db:seed` create: three people, the tasks in their personal
 * workspaces (shared, public, with subtasks), a team workspace they all work in with its own tasks,
 * and discussions with replies, mentions and reactions. Most of the file is that data, written out
 * so a reader sees the whole demo; the code is seedDemoWorkspace().
 */

export const DEMO_PASSWORD = 'threadwork-demo'

export const DEMO_USERS = [
  { key: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' },
  { key: 'grace', name: 'Grace Hopper', email: 'grace@example.com' },
  { key: 'alan', name: 'Alan Turing', email: 'alan@example.com' },
] as const

type UserKey = (typeof DEMO_USERS)[number]['key']

/**
 * The team workspace the three work in together (docs/product-rules.md §1): Ada owns it, Grace
 * helps run it, Alan works in it. Each also keeps their personal workspace, which every account has.
 */
export const DEMO_TEAM = {
  name: 'Threadwork Labs',
  slug: 'threadwork-labs',
  members: [
    ['ada', 'owner'],
    ['grace', 'admin'],
    ['alan', 'member'],
  ],
} as const satisfies { name: string; slug: string; members: readonly (readonly [UserKey, WorkspaceRole])[] }

/**
 * A demo task: the columns of `tasks` a person fills in, written to the row as they are (a column
 * added to the table may be given here with no other edit), and by key what the seed works out.
 */
type DemoTask = Omit<typeof tasks.$inferInsert, WorkedOut> & {
  key: string
  /** Who created it: in their personal workspace unless it is the team's. */
  owner: UserKey
  /** In the team workspace (`DEMO_TEAM`) rather than its creator's personal one. */
  inTeam?: true
  priority: Priority
  status: Status
  hrs: number
  parent?: string
  sharedWith?: UserKey[]
  daysAgo: number
  /** Due this many days from the day of seeding (before it, when negative: overdue). */
  dueInDays?: number
  /** A member of its workspace or someone it is shared with. */
  assignee?: UserKey
}

/** The columns seedDemoWorkspace() sets from the keys above, the clock and the ids it was given. */
type WorkedOut =
  | 'id'
  | 'userId'
  | 'workspaceId'
  | 'parentTaskId'
  | 'dueDate'
  | 'assigneeId'
  | 'completedAt'
  | 'searchAudience'
  | 'createdAt'
  | 'updatedAt'

const DEMO_TASKS: DemoTask[] = [
  {
    key: 'launch',
    owner: 'ada',
    text: 'Ship the public beta',
    details: 'Everything that has to be true before we open sign-ups to everyone.',
    priority: 'high',
    status: 'In Progress',
    hrs: 8,
    sharedWith: ['grace', 'alan'],
    daysAgo: 12,
    dueInDays: 3,
    assignee: 'ada',
  },
  {
    key: 'launch-docs',
    owner: 'ada',
    parent: 'launch',
    text: 'Write the getting-started guide',
    priority: 'high',
    status: 'Completed',
    hrs: 3,
    daysAgo: 11,
  },
  {
    key: 'launch-pricing',
    owner: 'ada',
    parent: 'launch',
    text: 'Finalise pricing tiers',
    details: 'Yearly and lifetime for three tiers; lifetime discounts of 48% and 63%.',
    priority: 'medium',
    status: 'In Progress',
    hrs: 2,
    daysAgo: 10,
    dueInDays: -2,
    assignee: 'ada',
  },
  {
    key: 'launch-status',
    owner: 'ada',
    parent: 'launch',
    text: 'Set up the status page',
    priority: 'low',
    status: 'Not Started',
    hrs: 1,
    daysAgo: 9,
    dueInDays: 5,
  },
  {
    key: 'onboarding',
    owner: 'ada',
    text: 'Redesign the onboarding checklist',
    refLink: 'https://www.nngroup.com/articles/user-onboarding/',
    priority: 'medium',
    status: 'Not Started',
    hrs: 5,
    sharedWith: ['grace'],
    daysAgo: 8,
    dueInDays: 1,
    assignee: 'grace',
  },
  {
    key: 'changelog',
    owner: 'ada',
    text: 'Publish the November changelog',
    priority: 'low',
    status: 'Completed',
    hrs: 1,
    isPublic: true,
    daysAgo: 6,
  },
  {
    key: 'retro',
    owner: 'ada',
    text: 'Run the sprint retrospective',
    details: 'Keep it to 45 minutes; bring the burn-down chart.',
    priority: 'medium',
    status: 'Completed',
    hrs: 1,
    daysAgo: 3,
  },
  {
    key: 'sse',
    owner: 'grace',
    text: 'Replace polling with server-sent events',
    details: 'Comments every 2 s and mentions every 3 s cost us most of our database reads.',
    refLink: 'https://html.spec.whatwg.org/multipage/server-sent-events.html',
    priority: 'high',
    status: 'In Progress',
    hrs: 6,
    sharedWith: ['ada'],
    daysAgo: 7,
    dueInDays: -1,
    assignee: 'ada',
  },
  {
    key: 'sse-fallback',
    owner: 'grace',
    parent: 'sse',
    text: 'Keep polling as the fallback with 304s',
    priority: 'medium',
    status: 'Not Started',
    hrs: 2,
    daysAgo: 7,
  },
  {
    key: 'indexes',
    owner: 'grace',
    text: 'Audit indexes on hot queries',
    priority: 'medium',
    status: 'Completed',
    hrs: 4,
    isPublic: true,
    daysAgo: 5,
  },
  {
    key: 'compiler',
    owner: 'grace',
    text: 'Profile the MDX build',
    priority: 'low',
    status: 'Not Started',
    hrs: 2,
    daysAgo: 2,
  },
  {
    key: 'a11y',
    owner: 'alan',
    text: 'Accessibility pass on the task modal',
    details: 'Focus trap, Escape to close, labelled controls, contrast in dark mode.',
    priority: 'high',
    status: 'Not Started',
    hrs: 4,
    sharedWith: ['ada'],
    daysAgo: 4,
    dueInDays: 0,
    assignee: 'ada',
  },
  {
    key: 'fuzz',
    owner: 'alan',
    text: 'Fuzz the mention parser',
    priority: 'medium',
    status: 'In Progress',
    hrs: 3,
    isPublic: true,
    daysAgo: 2,
    dueInDays: 2,
    assignee: 'alan',
  },
  {
    key: 'reading',
    owner: 'alan',
    text: 'Read "On Computable Numbers" again',
    refLink: 'https://www.cs.virginia.edu/~robins/Turing_Paper_1936.pdf',
    priority: 'low',
    status: 'Completed',
    hrs: 2,
    daysAgo: 1,
  },
  {
    key: 'backups',
    owner: 'alan',
    text: 'Test restoring a database backup',
    priority: 'high',
    status: 'Not Started',
    hrs: 2,
    daysAgo: 0,
    dueInDays: 9,
  },
  {
    key: 'roadmap',
    owner: 'ada',
    inTeam: true,
    text: 'Draft the first-quarter roadmap',
    details: 'Teams, invitations and the bigger plans: what goes first, and what waits.',
    priority: 'high',
    status: 'In Progress',
    hrs: 4,
    daysAgo: 6,
    dueInDays: 4,
    assignee: 'grace',
  },
  {
    key: 'roadmap-pricing',
    owner: 'grace',
    inTeam: true,
    parent: 'roadmap',
    text: 'Agree on member limits per plan',
    priority: 'medium',
    status: 'Completed',
    hrs: 1,
    daysAgo: 5,
  },
  {
    key: 'team-bench',
    owner: 'ada',
    inTeam: true,
    text: 'Benchmark the task list of a fifty-person team',
    priority: 'high',
    status: 'Not Started',
    hrs: 3,
    daysAgo: 2,
    dueInDays: 6,
    assignee: 'alan',
  },
  {
    key: 'team-ci',
    owner: 'grace',
    inTeam: true,
    text: 'Run the browser tests on every pull request',
    priority: 'medium',
    status: 'Completed',
    hrs: 2,
    daysAgo: 9,
  },
  {
    key: 'team-glossary',
    owner: 'alan',
    inTeam: true,
    text: 'Write down what owner, admin, member and guest may do',
    priority: 'low',
    status: 'Not Started',
    hrs: 1,
    daysAgo: 1,
  },
]

type DemoComment = {
  key: string
  task: string
  author: UserKey
  content: string
  replyTo?: string
  mentions?: UserKey[]
  reactions?: [UserKey, ReactionType][]
  minutesAgo: number
}

const DEMO_COMMENTS: DemoComment[] = [
  {
    key: 'c1',
    task: 'launch',
    author: 'ada',
    content: '@Grace Hopper can you own the streams work before we open the beta?',
    mentions: ['grace'],
    reactions: [
      ['grace', 'thumbsup'],
      ['alan', 'fire'],
    ],
    minutesAgo: 60 * 30,
  },
  {
    key: 'c2',
    task: 'launch',
    author: 'grace',
    replyTo: 'c1',
    content: 'Yes — SSE with polling as the fallback. @Ada Lovelace I will share the task with you.',
    mentions: ['ada'],
    reactions: [['ada', 'heart']],
    minutesAgo: 60 * 29,
  },
  {
    key: 'c3',
    task: 'launch',
    author: 'alan',
    replyTo: 'c1',
    content: 'I can review the accessibility side in parallel.',
    reactions: [['ada', 'check']],
    minutesAgo: 60 * 20,
  },
  {
    key: 'c4',
    task: 'launch',
    author: 'ada',
    content: 'Pricing is settled; only the status page is left on my side.',
    minutesAgo: 45,
  },
  {
    key: 'c5',
    task: 'sse',
    author: 'ada',
    content: 'Remember the keep-alive comment line so proxies keep idle streams open.',
    reactions: [['grace', 'thumbsup']],
    minutesAgo: 60 * 5,
  },
  {
    key: 'c6',
    task: 'sse',
    author: 'grace',
    replyTo: 'c5',
    content: 'Done, and Last-Event-ID replays what a client missed.',
    reactions: [
      ['ada', 'fire'],
      ['ada', 'heart'],
    ],
    minutesAgo: 60 * 4,
  },
  {
    key: 'c7',
    task: 'a11y',
    author: 'alan',
    content: '@Ada Lovelace the dialog traps focus now; Escape and the overlay both close it.',
    mentions: ['ada'],
    minutesAgo: 90,
  },
  {
    key: 'c8',
    task: 'indexes',
    author: 'grace',
    content: 'Every list query is index-only at 100k tasks.',
    reactions: [
      ['ada', 'check'],
      ['alan', 'thumbsup'],
    ],
    minutesAgo: 60 * 24 * 2,
  },
  {
    key: 'c9',
    task: 'roadmap',
    author: 'ada',
    content: '@Grace Hopper can you turn the notes into a first draft by Friday?',
    mentions: ['grace'],
    reactions: [['grace', 'thumbsup']],
    minutesAgo: 60 * 26,
  },
  {
    key: 'c10',
    task: 'roadmap',
    author: 'grace',
    replyTo: 'c9',
    content: 'On it. @Alan Turing the benchmark decides whether teams ship first.',
    mentions: ['alan'],
    minutesAgo: 60 * 25,
  },
  {
    key: 'c11',
    task: 'roadmap',
    author: 'alan',
    replyTo: 'c9',
    content: 'I will have numbers for fifty members by Wednesday.',
    reactions: [
      ['ada', 'fire'],
      ['grace', 'check'],
    ],
    minutesAgo: 30,
  },
]

/**
 * Fills an empty database with the demo: its people (each with their personal workspace, made
 * with the account), the team workspace and everything in both. Returns false (and writes
 * nothing) when the database already has users, so running it twice is harmless.
 */
export async function seedDemoWorkspace(db: Database, now = new Date()): Promise<boolean> {
  const [existing] = await db.select({ n: count() }).from(users)
  if ((existing?.n ?? 0) > 0) return false

  const passwordHash = await hashPassword(DEMO_PASSWORD)
  const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000)
  const today = localDateOf(now.getTime(), DEFAULT_TIME_ZONE)
  const dueIn = (days: number | undefined) => (days === undefined ? undefined : isoDate(addDays(today, days)))

  // The rows take the ids the ones before them were given: read inside the commit.
  await commitAfterReading(db, async (tx) => {
    const userIds = new Map<UserKey, string>()
    for (const [index, user] of DEMO_USERS.entries()) {
      const [row] = await tx
        .insert(users)
        .values({
          name: user.name,
          email: user.email,
          passwordHash,
          emailVerifiedAt: ago(60 * 24 * 30),
          onboardedAt: ago(60 * 24 * 30),
          createdAt: ago(60 * 24 * (30 - index)),
        })
        .returning({ id: users.id })
      if (row) userIds.set(user.key, row.id)
    }
    const userId = (key: UserKey) => userIds.get(key) as string
    const emailOf = (key: UserKey) => DEMO_USERS.find((user) => user.key === key)?.email as string

    const teamCreatedAt = ago(60 * 24 * 20)
    const [team] = await tx
      .insert(workspaces)
      .values({ name: DEMO_TEAM.name, slug: DEMO_TEAM.slug, createdAt: teamCreatedAt })
      .returning({ id: workspaces.id })
    const teamId = team?.id as string
    await tx.insert(workspaceMembers).values(
      DEMO_TEAM.members.map(([key, role], index) => ({
        workspaceId: teamId,
        userId: userId(key),
        role,
        createdAt: new Date(teamCreatedAt.getTime() + index * 60_000),
      })),
    )

    const taskIds = new Map<string, string>()
    for (const task of DEMO_TASKS) {
      const { key, owner, inTeam, parent, sharedWith, daysAgo, dueInDays, assignee, ...columns } = task
      const createdAt = ago(daysAgo * 60 * 24 + 30)
      const [row] = await tx
        .insert(tasks)
        .values({
          ...columns,
          userId: userId(owner),
          workspaceId: inTeam ? teamId : userId(owner),
          parentTaskId: parent ? taskIds.get(parent) : undefined,
          dueDate: dueIn(dueInDays),
          assigneeId: assignee ? userId(assignee) : undefined,
          completedAt: task.status === 'Completed' ? ago(daysAgo * 60 * 24) : undefined,
          createdAt,
          updatedAt: createdAt,
        })
        .returning({ id: tasks.id })
      if (!row) continue
      taskIds.set(key, row.id)
      for (const person of sharedWith ?? []) {
        await tx.insert(taskShares).values({ taskId: row.id, email: emailOf(person), createdAt })
      }
    }

    const commentIds = new Map<string, string>()
    for (const comment of DEMO_COMMENTS) {
      const taskId = taskIds.get(comment.task) as string
      const createdAt = ago(comment.minutesAgo)
      const [row] = await tx
        .insert(comments)
        .values({
          taskId,
          userId: userId(comment.author),
          parentCommentId: comment.replyTo ? commentIds.get(comment.replyTo) : undefined,
          content: comment.content,
          createdAt,
          updatedAt: createdAt,
        })
        .returning({ id: comments.id })
      if (!row) continue
      commentIds.set(comment.key, row.id)
      for (const [who, type] of comment.reactions ?? []) {
        await tx.insert(commentReactions).values({ commentId: row.id, userId: userId(who), type, createdAt })
      }
      for (const mentioned of comment.mentions ?? []) {
        await tx.insert(notifications).values({
          recipientId: userId(mentioned),
          taskId,
          commentId: row.id,
          type: 'mention',
          fromUserId: userId(comment.author),
          content: comment.content,
          isRead: comment.minutesAgo > 60 * 24,
          createdAt,
        })
      }
    }
  })
  return true
}
