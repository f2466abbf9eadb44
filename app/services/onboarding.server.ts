import { and, eq, isNull, or, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { taskShares, tasks, users } from '~/db/schema'
import { commit } from '~/db/write.server'
import { Invalid, NotFound } from './errors'
import type { Actor } from './session-user'
import { getTask } from './tasks/reads.server'
import { updateTask } from './tasks/writes.server'

/**
 * First-run guidance. A new account is guided through four steps (name and avatar, a first task,
 * sharing it or making it public, where to go next); any step may be skipped, and finishing
 * records `onboardedAt`. Until then the dashboard shows what is left as a checklist, each item
 * read from the person's own data, so doing a step anywhere in the app ticks it.
 */

export type Onboarding = {
  isFinished: boolean
  /** Each step's item on the checklist: done or not. */
  checklist: { profile: boolean; task: boolean; share: boolean }
  /** The task the share step offers: the person's newest top-level task, or null. */
  taskToShare: { id: string; text: string; isPublic: boolean } | null
}

export async function getOnboarding(db: Database, actor: Actor): Promise<Onboarding> {
  const ownTopLevel = and(eq(tasks.userId, actor.id), isNull(tasks.parentTaskId))
  const [[person], [newest], [shared]] = await Promise.all([
    db.select({ name: users.name, onboardedAt: users.onboardedAt }).from(users).where(eq(users.id, actor.id)),
    db
      .select({ id: tasks.id, text: tasks.text, isPublic: tasks.isPublic })
      .from(tasks)
      .where(ownTopLevel)
      .orderBy(sql`${tasks.createdAt} DESC`)
      .limit(1),
    db
      .select({ id: tasks.id })
      .from(tasks)
      .where(
        and(
          eq(tasks.userId, actor.id),
          or(
            eq(tasks.isPublic, true),
            sql`EXISTS (SELECT 1 FROM ${taskShares} WHERE ${taskShares.taskId} = ${tasks.id})`,
          ),
        ),
      )
      .limit(1),
  ])
  if (!person) throw new NotFound('Account not found.')
  return {
    isFinished: person.onboardedAt !== null,
    checklist: {
      profile: person.name.trim() !== '',
      task: newest !== undefined,
      share: shared !== undefined,
    },
    taskToShare: newest ?? null,
  }
}

/** Finishing (or skipping the rest) is recorded once; later calls keep the first time. */
export async function finishOnboarding(db: Database, actor: Actor, now = new Date()) {
  await commit(db, {
    finished: db
      .update(users)
      .set({ onboardedAt: now })
      .where(and(eq(users.id, actor.id), isNull(users.onboardedAt))),
  })
}

/**
 * The share step: share the task with more people (keeping whom it is shared with already), make
 * it public, or both, in one change; the task service checks ownership and the addresses.
 */
export async function shareFirstTask(
  db: Database,
  actor: Actor,
  input: { taskId: string; sharedWith: string[]; isPublic: boolean },
) {
  if (input.sharedWith.length === 0 && !input.isPublic) {
    throw new Invalid('Enter an address to share with, or make the task public.', [
      { path: ['sharedWith'], message: 'Enter an address to share with, or make the task public.' },
    ])
  }
  const { task } = await getTask(db, actor, input.taskId)
  return updateTask(db, actor, task.id, {
    ...(input.sharedWith.length > 0
      ? { sharedWith: [...new Set([...task.sharedWith, ...input.sharedWith])] }
      : {}),
    ...(input.isPublic ? { isPublic: true } : {}),
  })
}
