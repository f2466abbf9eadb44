import type { FormEvent, FormEventHandler } from 'react'
import { useFormAction, useNavigation, useSubmit } from 'react-router'

/** What a pending state waits for: a submission to this action, by this method, with this intent. */
export type ExpectedSubmission = {
  /** The form's action; a form without one posts to its route, with the page's search. */
  formAction?: string
  formMethod?: string
  /** The form's hidden `intent` field, where one action serves several forms. */
  intent?: string
  /** Other fields that tell one form from its neighbours (the session a Revoke button names). */
  fields?: Record<string, string>
}

/** The part of React Router's navigation (or a fetcher) that says what is being submitted. */
export type Submission = {
  formAction?: string
  formMethod?: string
  formData?: FormData
}

/**
 * The address an action is known by: its path, and whether it names the index route. The rest of
 * the search is where the page was (`/login?redirect=/task`), not which action runs.
 */
function actionAddress(action: string) {
  const url = new URL(action, 'http://local')
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname
  return `${path}${url.searchParams.has('index') ? '?index' : ''}`
}

/** Whether `submission` is the one `expected` describes. */
export function isSubmissionOf(
  submission: Submission,
  expected: ExpectedSubmission & { formAction: string },
): boolean {
  if (!submission.formAction) return false
  if (actionAddress(submission.formAction) !== actionAddress(expected.formAction)) return false
  const method = expected.formMethod ?? 'POST'
  if (submission.formMethod?.toUpperCase() !== method.toUpperCase()) return false
  const fields = { ...expected.fields, ...(expected.intent === undefined ? {} : { intent: expected.intent }) }
  return Object.entries(fields).every(([name, value]) => submission.formData?.get(name) === value)
}

/**
 * True from the moment a matching form is submitted until the page shows its outcome (the
 * action and the loaders after it). Without `formAction` it is the action of the route this is
 * called in, as a `<Form>` without `action` posts there.
 */
export function useIsPending({ formAction, ...expected }: ExpectedSubmission = {}) {
  const navigation = useNavigation()
  const routeAction = useFormAction()
  return (
    navigation.state !== 'idle' &&
    isSubmissionOf(navigation, { ...expected, formAction: formAction ?? routeAction })
  )
}

type SubmitTarget = HTMLFormElement | HTMLButtonElement | HTMLInputElement

/** What a `<Form>` passes on to its submission, so a form submitted once passes it too. */
export type SubmitOnceOptions = { preventScrollReset?: boolean }

/**
 * The `onSubmit` of a form whose button shows its pending state. It submits as `<Form>` (or a
 * fetcher's form, given its `submit`) would, but commits the pending state at once (`flushSync`)
 * rather than in a transition, so the button is disabled before a second click or Enter can send
 * the form again. A form's own `onSubmit` (conform's validation) runs first and may stop it.
 * `<ActionForm>` submits this way; `options` carry the form's own `preventScrollReset`.
 */
export function useSubmitOnce(
  fetcher?: {
    submit: (target: SubmitTarget, options: { flushSync: boolean } & SubmitOnceOptions) => Promise<void>
  },
  options: SubmitOnceOptions = {},
) {
  const navigate = useSubmit()
  const submit = fetcher?.submit ?? navigate
  return (onSubmit?: FormEventHandler<HTMLFormElement>) => (event: FormEvent<HTMLFormElement>) => {
    onSubmit?.(event)
    if (event.defaultPrevented) return
    event.preventDefault()
    const { submitter } = event.nativeEvent as SubmitEvent
    const target =
      submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement
        ? submitter
        : event.currentTarget
    void submit(target, { ...options, flushSync: true })
  }
}
