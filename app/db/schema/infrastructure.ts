import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { createdAt, id, ms, updatedAt } from './columns'

/** What every instance shares through the database: the e-mail outbox, jobs, rate limits. */
export const emailOutbox = sqliteTable(
  'email_outbox',
  {
    id: id(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ms('next_attempt_at')
      .notNull()
      .$defaultFn(() => new Date()),
    lastError: text('last_error'),
    sentAt: ms('sent_at'),
    createdAt: createdAt(),
  },
  (t) => [index('email_outbox_due_idx').on(t.status, t.nextAttemptAt)],
)

export const jobs = sqliteTable(
  'jobs',
  {
    id: id(),
    type: text('type').notNull(),
    payload: text('payload', { mode: 'json' }).notNull().$type<Record<string, unknown>>(),
    status: text('status', { enum: ['pending', 'running', 'done', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    runAt: ms('run_at')
      .notNull()
      .$defaultFn(() => new Date()),
    lockedUntil: ms('locked_until'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('jobs_due_idx').on(t.status, t.runAt)],
)

/** Fixed-window counters, shared by every instance through the database. */
export const rateLimits = sqliteTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  resetAt: ms('reset_at').notNull(),
})
