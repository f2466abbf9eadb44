import { describe, expect, test } from 'vitest'
import { Conflict, RateLimited } from '~/services/errors'
import { z } from '~/utils/zod'
import { handleForm } from './form-action.server'

/**
 * How every action answers a form: the change runs only on a form that parses; a form that does
 * not is a 400, a domain error its own status, shown next to the fields or as one message. The
 * routes' own tests show the same through real requests.
 */

const Intent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('rename'), name: z.string({ error: 'Give a name' }).min(2, 'Too short') }),
  z.object({ intent: z.literal('archive') }),
])
const Login = z.object({ email: z.string({ error: 'Enter an e-mail' }), password: z.string().min(1) })

function form(fields: Record<string, string>) {
  const formData = new FormData()
  for (const [name, value] of Object.entries(fields)) formData.set(name, value)
  return formData
}

const refuse = (message: string) => ({ error: message })
const done = async () => new Response(null, { status: 204 })

describe('handleForm, refusals shown as one message', () => {
  test('a form that parses runs its change, and the change answers', async () => {
    const seen: unknown[] = []
    const answer = await handleForm(
      form({ intent: 'rename', name: 'Ada' }),
      Intent,
      async (input) => {
        seen.push(input)
        return new Response(null, { status: 204 })
      },
      { refusal: refuse },
    )
    expect(seen).toEqual([{ intent: 'rename', name: 'Ada' }])
    expect(answer).toBeInstanceOf(Response)
  })

  test('each intent reaches its own change', async () => {
    const seen: string[] = []
    const changes = {
      rename: async ({ name }: { name: string }) => {
        seen.push(`rename ${name}`)
        return new Response()
      },
      archive: async () => {
        seen.push('archive')
        return new Response()
      },
    }
    await handleForm(form({ intent: 'archive' }), Intent, changes, { refusal: refuse })
    await handleForm(form({ intent: 'rename', name: 'Ada' }), Intent, changes, { refusal: refuse })
    expect(seen).toEqual(['archive', 'rename Ada'])
  })

  test('a form that does not parse is a 400 with its first problem, and nothing runs', async () => {
    let ran = false
    const change = async () => {
      ran = true
      return new Response()
    }
    const short = await handleForm(form({ intent: 'rename', name: 'A' }), Intent, change, { refusal: refuse })
    expect(short).toMatchObject({ data: { error: 'Too short' }, init: { status: 400 } })
    const unknown = await handleForm(form({ intent: 'explode' }), Intent, change, { refusal: refuse })
    expect(unknown).toMatchObject({ init: { status: 400 } })
    expect(ran).toBe(false)
  })

  test('a domain error is refused with its status, message and Retry-After', async () => {
    const answer = await handleForm(
      form({ intent: 'archive' }),
      Intent,
      async () => {
        throw new RateLimited('Wait a minute.', 60)
      },
      { refusal: refuse },
    )
    expect(answer).toMatchObject({
      data: { error: 'Wait a minute.' },
      init: { status: 429, headers: { 'Retry-After': '60' } },
    })
  })

  test('any other error rethrows', async () => {
    const bug = new Error('bug')
    const answer = handleForm(
      form({ intent: 'archive' }),
      Intent,
      async () => {
        throw bug
      },
      { refusal: refuse },
    )
    await expect(answer).rejects.toBe(bug)
  })
})

describe('handleForm, refusals shown next to the fields', () => {
  test("a form of its own that does not parse is a 400 with conform's reply, hidden fields left out", async () => {
    const answer = await handleForm(form({ password: 'secret' }), Login, done, { hideFields: ['password'] })
    expect(answer).toMatchObject({
      data: { result: { status: 'error', error: { email: ['Enter an e-mail'] } } },
      init: { status: 400 },
    })
    expect(JSON.stringify(answer)).not.toContain('secret')
  })

  test('on a page of several forms the reply names its intent, and an unknown intent answers no form', async () => {
    const short = await handleForm(form({ intent: 'rename', name: 'A' }), Intent, {
      rename: done,
      archive: done,
    })
    expect(short).toMatchObject({
      data: { intent: 'rename', result: { error: { name: ['Too short'] } } },
      init: { status: 400 },
    })
    const unknown = await handleForm(form({ intent: 'explode' }), Intent, { rename: done, archive: done })
    expect(unknown).toMatchObject({ data: { intent: null, result: null }, init: { status: 400 } })
  })

  test('a domain error is its message above the form, with its status and the headers asked for', async () => {
    const answer = await handleForm(
      form({ intent: 'archive' }),
      Intent,
      {
        rename: done,
        archive: async () => {
          throw new Conflict('Already archived.')
        },
      },
      { headers: { 'Cache-Control': 'no-store' } },
    )
    expect(answer).toMatchObject({
      data: { intent: 'archive', result: { error: { '': ['Already archived.'] } } },
      init: { status: 409, headers: { 'Cache-Control': 'no-store' } },
    })
  })

  test('the change may answer with the form reset', async () => {
    const answer = await handleForm(
      form({ email: 'a@b.c', password: 'x' }),
      Login,
      async (input, accepted) => ({
        result: accepted.reply({ resetForm: true }),
        email: input.email,
      }),
    )
    expect(answer).toEqual({ result: { initialValue: null }, email: 'a@b.c' })
  })
})
