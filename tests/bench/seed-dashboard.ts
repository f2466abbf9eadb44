/**
 * The dashboard bench's database: 100,000 tasks, 5,000 of them owned by the person measured
 * (a tenth of them subtasks, a third completed over the last 120 days, some shared), the rest
 * spread over 95 other people, 300 of whose tasks are shared with the person. Inserted in
 * batches inside one transaction, so seeding takes seconds. Run by dashboard.ts as
 * `node --import tsx tests/bench/seed-dashboard.ts <file>`; prints `{ cookie }` as one JSON line.
 */
import { sql } from 'drizzle-orm'
import { SESSION_COOKIE } from '~/auth/session-cookie.server'
import { openDatabase } from '~/db/client.server'
import { migrateDatabase } from '~/db/migrate.server'
import { taskShares, tasks } from '~/db/schema'
import { PRIORITIES, STATUSES } from '~/domain/constants'
import { createSession } from '~/services/sessions.server'
import { createUser } from '../helpers/factories'

const TOTAL_TASKS = 100_000
const OWN_TASKS = 5_000
type NewTask = typeof tasks.$inferInsert

const OTHER_PEOPLE = 95
const SHARED_WITH_PERSON = 300
const BATCH = 500
const DAY = 86_400_000

const file = process.argv[2]
if (!file) throw new Error('usage: seed-dashboard.ts <database file>')
const db = openDatabase({ url: `file:${file}` })
await migrateDatabase(db)

const person = await createUser(db, {
  name: 'Ada Lovelace',
  email: 'ada@example.test',
  onboardedAt: new Date(),
})
const others: { id: string; email: string }[] = []
for (let i = 0; i < OTHER_PEOPLE; i++) {
  others.push(await createUser(db, { email: `person${i}@example.test`, onboardedAt: new Date() }))
}

/** A task as people leave them: varied priority and status, completed ones over the last 120 days. */
function taskRow(userId: string, n: number, parentTaskId: string | null = null): NewTask {
  const status = STATUSES[n % 3] ?? 'Not Started'
  const createdAt = new Date(Date.now() - ((n * 7919) % 120) * DAY - 3 * DAY)
  return {
    id: `t${n}`,
    userId,
    workspaceId: userId,
    parentTaskId,
    text: `Task number ${n}`,
    priority: PRIORITIES[n % 3],
    status,
    hrs: (n % 8) + 1,
    createdAt,
    completedAt: status === 'Completed' ? new Date(createdAt.getTime() + ((n % 5) + 1) * DAY) : null,
  }
}

const rows: NewTask[] = []
for (let n = 0; n < OWN_TASKS; n++) {
  // Every tenth task is a subtask of the task before it, as people break work down.
  rows.push(taskRow(person.id, n, n % 10 === 9 ? `t${n - 1}` : null))
}
for (let n = OWN_TASKS; n < TOTAL_TASKS; n++) {
  const owner = others[n % OTHER_PEOPLE]
  if (owner) rows.push(taskRow(owner.id, n))
}

await db.transaction(async (tx) => {
  for (let start = 0; start < rows.length; start += BATCH) {
    await tx.insert(tasks).values(rows.slice(start, start + BATCH))
  }
  const shares = [
    ...Array.from({ length: SHARED_WITH_PERSON }, (_, i) => ({
      taskId: `t${OWN_TASKS + i * 7}`,
      email: person.email,
    })),
    ...Array.from({ length: 200 }, (_, i) => ({
      taskId: `t${i * 20}`,
      email: others[i % OTHER_PEOPLE]?.email ?? '',
    })),
  ]
  for (let start = 0; start < shares.length; start += BATCH) {
    await tx.insert(taskShares).values(shares.slice(start, start + BATCH))
  }
})

const session = await createSession(db, person.id)
await db.run(sql`PRAGMA wal_checkpoint(TRUNCATE)`)
db.$client.close()
console.log(JSON.stringify({ cookie: `${SESSION_COOKIE}=${encodeURIComponent(session.token)}` }))
