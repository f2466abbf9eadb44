import { defineConfig } from 'drizzle-kit'

export default defineConfig({
  schema: './app/db/schema/index.ts',
  out: './drizzle',
  // drizzle-kit's "turso" dialect speaks to file: and libsql:/http: URLs alike.
  dialect: 'turso',
  dbCredentials: {
    url: process.env.DATABASE_URL ?? 'file:data/app.db',
    authToken: process.env.DATABASE_AUTH_TOKEN,
  },
})
