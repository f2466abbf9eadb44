import type { Ref } from 'react'
import { type FetcherFormProps, type FetcherWithComponents, Form, useLocation } from 'react-router'
import { CsrfInput } from '~/components/csrf-input'
import { useSubmitOnce } from '~/utils/pending'

type Fetcher = Pick<FetcherWithComponents<unknown>, 'Form' | 'submit'>

export type ActionFormProps = Omit<FetcherFormProps, 'method'> & {
  /** Posts with this fetcher, so the page stays as it is; without one the form navigates. */
  fetcher?: Fetcher
  /** The hidden `intent` field, where one action serves several forms. */
  intent?: string
  /**
   * The page the action sends the person back to (`redirectTo`), for a form that posts to another
   * route's action: `true` for this page as it is (its path and search), or the address given.
   */
  redirectTo?: true | string
  ref?: Ref<HTMLFormElement>
}

/**
 * Every form that posts to an action. It carries the page's CSRF token (the root middleware
 * refuses a POST without one), the `intent` and the return address when given, and it submits
 * once: the pending state is committed before a second click or Enter could send it again
 * (`useSubmitOnce`), so a `StatusButton` with `useIsPending` or the fetcher's state shows it.
 * Without JavaScript it is a plain `<form method="post">` with the same fields.
 */
export function ActionForm({ fetcher, intent, redirectTo, onSubmit, children, ...props }: ActionFormProps) {
  const location = useLocation()
  const submitOnce = useSubmitOnce(fetcher, { preventScrollReset: props.preventScrollReset })
  const FormElement: Fetcher['Form'] = fetcher?.Form ?? Form
  const returnTo = redirectTo === true ? location.pathname + location.search : redirectTo
  return (
    <FormElement method="post" {...props} onSubmit={submitOnce(onSubmit)}>
      <CsrfInput />
      {intent === undefined ? null : <input type="hidden" name="intent" value={intent} />}
      {returnTo === undefined ? null : <input type="hidden" name="redirectTo" value={returnTo} />}
      {children}
    </FormElement>
  )
}
