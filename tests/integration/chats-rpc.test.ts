import { afterAll, beforeAll, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { createChat } from '~/services/chats.server'
import { toSessionUser } from '~/services/sessions.server'
import { anonymousBrowser, signedInBrowser } from '../helpers/auth'
import { createUser } from '../helpers/factories'
import { type RpcServer, startRpcServer } from '../helpers/rpc'

/** ai.getSavedChats over real HTTP with @orpc/client's RPCLink, by GET as the contract says. */

let server: RpcServer
beforeAll(async () => {
  server = await startRpcServer()
})
afterAll(() => server.close())

test("ai.getSavedChats: the caller's own chats, latest first; 401 for a visitor", async () => {
  const db = database()
  const owner = await createUser(db)
  const other = await createUser(db)
  await createChat(db, toSessionUser(owner), 'rpc-first', 'First question')
  await new Promise((resolve) => setTimeout(resolve, 5))
  await createChat(db, toSessionUser(owner), 'rpc-second', 'Second question')
  await createChat(db, toSessionUser(other), 'rpc-theirs', 'Not yours')

  const client = server.clientAs(await signedInBrowser(db, owner.id), { method: 'GET' })
  const chats = await client.ai.getSavedChats()
  expect(chats.map((chat) => [chat.id, chat.title, chat.visibility])).toEqual([
    ['rpc-second', 'Second question', 'private'],
    ['rpc-first', 'First question', 'private'],
  ])

  const visitor = server.clientAs(anonymousBrowser(), { method: 'GET' })
  await expect(visitor.ai.getSavedChats()).rejects.toMatchObject({ code: 'UNAUTHORIZED', status: 401 })
})
