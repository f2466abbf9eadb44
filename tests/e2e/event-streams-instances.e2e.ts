import { openEventSource, readRawStream } from '../helpers/sse'
import { signUpThroughApi } from './api-client'
import { withTwoInstances } from './app-process'
import { expect, test } from './fixtures'
import { createTaskThroughApi } from './rpc-calls'

/**
 * Two instances of the built server on one database file, as two machines on one libSQL
 * database would be: a change made through one reaches a stream connected to the other (its
 * broadcaster polls the shared log), and SIGTERM ends an instance's streams so their clients
 * reconnect elsewhere, and the process still exits cleanly.
 */

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'no browser involved; runs once')

test('a change made through instance A reaches a stream on instance B; SIGTERM ends B’s streams', async () =>
  withTwoInstances(async (a, b) => {
    const password = 'correct horse battery staple'
    const email = `ada-${Date.now()}@example.test`
    const client = await signUpThroughApi(a.origin, { name: 'Ada', email, password })
    const onB = openEventSource(`${b.origin}/api/events/tasks`, client.cookieHeader())
    await onB.waitFor('ready', undefined, 5000)

    const started = Date.now()
    const { id } = await createTaskThroughApi({ name: 'Ada', email, client }, { text: 'Made on A' })
    const created = await onB.waitFor('task-created', (event) => event.data.taskId === id, 5000)
    expect(created.data.taskId).toBe(id)
    expect(Date.now() - started).toBeLessThan(1000)
    onB.close()

    const raw = await readRawStream(`${b.origin}/api/events/tasks`, { cookie: client.cookieHeader() })
    await raw.waitFor('ready', undefined, 5000)
    b.child.kill('SIGTERM')
    await raw.ended
    expect(await b.exited).toBe(0)
    expect(b.output()).toContain('Stopped')
  }))
