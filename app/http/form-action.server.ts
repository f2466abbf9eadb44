import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { refusalFor, replyWithError } from '~/http/refusals.server'
import type { DomainError } from '~/services/errors'
import type { z } from '~/utils/zod'

/**
 * The one way a route's action answers a form: parse it with its zod schema (conform's
 * `parseWithZod`), hand the parsed input to the route's change, and refuse what cannot be done —
 * a form that does not parse with 400, a domain error through the one translation
 * (`refusalFor`/`replyWithError` in refusals.server.ts) with its status and Retry-After. Anything
 * else is a bug and rethrows, to a 500. No route writes these lines itself
 * (tests/unit/one-way-to-answer-a-form.test.ts fails on one that does).
 *
 * `handle` is one change for a form of its own, or, for a page of several forms, one change per
 * intent: the schema is then a `z.discriminatedUnion('intent', …)` of the forms' own schemas and
 * each form's hidden `intent` field picks its change.
 *
 * A refusal is shown one of two ways:
 * - next to the fields (the default): the body is conform's reply, `{ result }`, with the form's
 *   `intent` beside it on a page of several forms; an intent the page does not know is
 *   `{ intent: null, result: null }`, as no form is there to show it;
 * - as one message (`refusal`): a fetcher's toast, or a page of its own without JavaScript; the
 *   body is what `refusal` makes of the form's first problem or the domain error's message.
 *
 * CSRF is checked before any action runs (the root middleware), and the body was bounded and read
 * once by `readFormData`.
 */

type Input<Schema extends z.ZodType> = z.output<Schema>
type IntentName<Schema extends z.ZodType> =
  Input<Schema> extends { intent: infer Name extends string } ? Name : never

/** The parsed form, for a change whose answer carries the form's reply (a form emptied once done). */
type AcceptedForm = { reply: (options?: { resetForm?: boolean }) => SubmissionResult }

type Change<In, Answer> = (input: In, form: AcceptedForm) => Promise<Answer>
type ChangePerIntent<Schema extends z.ZodType, Answer> = {
  [Name in IntentName<Schema>]: Change<Extract<Input<Schema>, { intent: Name }>, Answer>
}

/**
 * The changes of a section of a page, written apart from its action (`{ … } satisfies
 * IntentChanges<typeof SectionIntent>`), so the pages that hold the section spread them in; with
 * `Answer`, the changes a helper of its own hands on (`adminAction`).
 */
export type IntentChanges<Schema extends z.ZodType<{ intent: string }>, Answer = unknown> = ChangePerIntent<
  Schema,
  Answer
>

type NextToTheFields = {
  /** Fields whose values never go back to the page (passwords, codes), in every answer. */
  hideFields?: string[]
  /** Headers of every refusal beside the error's own. */
  headers?: Record<string, string>
  /** The words above the form, when the page says more than the error's own message. */
  message?: (error: DomainError) => string
  refusal?: never
}
type AsOneMessage<Body> = {
  /** The body of a refusal, made from its one message. */
  refusal: (message: string) => Body
}

type FieldsRefused = ReturnType<typeof data<{ result: SubmissionResult }>>
type IntentFieldsRefused<Schema extends z.ZodType> = ReturnType<
  typeof data<{ intent: IntentName<Schema>; result: SubmissionResult } | { intent: null; result: null }>
>
type MessageRefused<Body> = ReturnType<typeof data<Body>>

const NO_PROBLEM_NAMED = 'Check the form and try again.'

type AnswerOf<Handle> = Handle extends (...args: never[]) => Promise<infer Answer>
  ? Answer
  : Handle extends Record<string, (...args: never[]) => Promise<infer Answer>>
    ? Answer
    : never

export function handleForm<Schema extends z.ZodType, Handle extends Change<Input<Schema>, unknown>>(
  formData: FormData | URLSearchParams,
  schema: Schema,
  handle: Handle,
  answer?: NextToTheFields,
): Promise<AnswerOf<Handle> | FieldsRefused>
export function handleForm<
  Schema extends z.ZodType<{ intent: string }>,
  Handle extends ChangePerIntent<Schema, unknown>,
>(
  formData: FormData | URLSearchParams,
  schema: Schema,
  handle: Handle,
  answer?: NextToTheFields,
): Promise<AnswerOf<Handle> | IntentFieldsRefused<Schema>>
export function handleForm<
  Schema extends z.ZodType,
  Handle extends Change<Input<Schema>, unknown> | ChangePerIntent<Schema, unknown>,
  Body,
>(
  formData: FormData | URLSearchParams,
  schema: Schema,
  handle: Handle,
  answer: AsOneMessage<Body>,
): Promise<AnswerOf<Handle> | MessageRefused<Body>>
export async function handleForm(
  formData: FormData | URLSearchParams,
  schema: z.ZodType,
  handle: Change<unknown, unknown> | Record<string, Change<unknown, unknown>>,
  answer: NextToTheFields | AsOneMessage<unknown> = {},
) {
  const submission = parseWithZod(formData, { schema })
  const changes = typeof handle === 'function' ? null : handle
  const named = formData.get('intent')
  const intent = changes && typeof named === 'string' && Object.hasOwn(changes, named) ? named : null
  const change = changes ? (intent === null ? null : changes[intent]) : (handle as Change<unknown, unknown>)

  if (answer.refusal) {
    const { refusal } = answer
    if (submission.status !== 'success' || !change) {
      const problems = submission.status === 'success' ? [] : Object.values(submission.error ?? {}).flat()
      return data(refusal(problems[0] ?? NO_PROBLEM_NAMED), { status: 400 })
    }
    try {
      return await change(submission.value, submission)
    } catch (error) {
      const { reason, init } = refusalFor(error)
      return data(refusal(reason.message), init)
    }
  }

  const { hideFields = [], headers, message } = answer
  if (changes && intent === null) return data({ intent: null, result: null }, { status: 400, headers })
  const body = changes ? { intent } : {}
  if (submission.status !== 'success' || !change) {
    return data({ ...body, result: submission.reply({ hideFields }) }, { status: 400, headers })
  }
  try {
    return await change(submission.value, submission)
  } catch (error) {
    return replyWithError(submission, error, { hideFields, body, headers, message })
  }
}
