import { closeDatabase, database } from '~/db/client.server'
import { migrateDatabase } from '~/db/migrate.server'
import { env } from '~/env.server'

await migrateDatabase(database())
console.log(`Migrations applied to ${env().DATABASE_URL}`)
closeDatabase()
