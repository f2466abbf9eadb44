import { closeDatabase, database } from '~/db/client.server'
import { migrateDatabase } from '~/db/migrate.server'
import { DEMO_PASSWORD, DEMO_TEAM, DEMO_USERS, seedDemoWorkspace } from '~/db/seed.server'
import { env } from '~/env.server'

const db = database()
await migrateDatabase(db)
const seeded = await seedDemoWorkspace(db)
console.log(
  seeded
    ? `Seeded a demo workspace into ${env().DATABASE_URL}.`
    : `${env().DATABASE_URL} already has users; left it as it is.`,
)
console.log('\nDemo accounts (password for each: %s):', DEMO_PASSWORD)
for (const user of DEMO_USERS) {
  const role = DEMO_TEAM.members.find(([key]) => key === user.key)?.[1]
  console.log(
    `  ${user.name.padEnd(14)} ${user.email.padEnd(18)} ${role ? `${role} of ${DEMO_TEAM.name}` : ''}`.trimEnd(),
  )
}
console.log('')
closeDatabase()
