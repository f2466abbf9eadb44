import { getFormProps, getInputProps, getTextareaProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import type { ReactElement } from 'react'
import { data, Link, useNavigation, useRouteLoaderData } from 'react-router'
import { clientIp } from '~/auth/client-ip.server'
import { csrfTokenFor } from '~/auth/context.server'
import { ActionForm } from '~/components/action-form'
import { RouteErrorScreen } from '~/components/error-screens'
import { StatusButton } from '~/components/ui/button'
import { Icon } from '~/components/ui/icon'
import { Input } from '~/components/ui/input'
import { Label } from '~/components/ui/label'
import { Textarea } from '~/components/ui/textarea'
import { database } from '~/db/client.server'
import { env } from '~/env.server'
import { handleForm } from '~/http/form-action.server'
import { keepRetryAfter } from '~/http/refusals.server'
import type { loader as rootLoader } from '~/root'
import { type DomainError, RateLimited } from '~/services/errors'
import { sendSupportMessage } from '~/services/support.server'
import { redirectWithToast } from '~/toast.server'
import { readFormData } from '~/utils/form-data.server'
import { useIsPending } from '~/utils/pending'
import { seo } from '~/utils/seo'
import { SupportMessageSchema } from '../services/support-schemas'
import type { Route } from './+types/support'

/** The toast title that also tells the page (without JavaScript) that a message went out. */
const MESSAGE_SENT = 'Message sent'

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    matches,
    title: 'Support',
    description: 'Write to the people who build Threadwork: by e-mail, or with the contact form.',
    path: '/support',
  })

/**
 * Never stored by a cache: the page holds this visitor's CSRF token, and a POST's answer is about
 * one submission. A 429's Retry-After reaches the browser (React Router passes on only cookies).
 */
export const headers: Route.HeadersFunction = (args) => {
  const headers = keepRetryAfter(args)
  headers.set('Cache-Control', 'private, no-store')
  return headers
}

export async function loader({ request, context }: Route.LoaderArgs) {
  return data(
    {
      supportEmail: env().SUPPORT_EMAIL,
      // Visitors are not signed in, so the form's token comes from here, bound to this browser.
      csrfToken: await csrfTokenFor(request, context),
    },
    // The page carries this visitor's CSRF token: a shared cache must never hand it to another.
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export async function action({ request, context }: Route.ActionArgs) {
  return handleForm(
    await readFormData(request),
    SupportMessageSchema,
    async (message) => {
      await sendSupportMessage(database(), message, {
        supportEmail: env().SUPPORT_EMAIL,
        clientIp: clientIp(request, context),
      })
      return redirectWithToast('/support', {
        type: 'success',
        title: MESSAGE_SENT,
        description: `Thanks, ${message.name}. We will answer at ${message.email}.`,
      })
    },
    { headers: { 'Cache-Control': 'no-store' }, message: withWait },
  )
}

/** A rate limit's message says how long the wait is, in minutes. */
function withWait(error: DomainError) {
  if (!(error instanceof RateLimited)) return error.message
  const minutes = Math.ceil(error.retryAfter / 60)
  return `${error.message} You can try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`
}

export default function Support({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation()
  const isSending = useIsPending()
  const toast = useRouteLoaderData<typeof rootLoader>('root')?.toast
  const sent = toast?.title === MESSAGE_SENT ? toast : null

  const [form, fields] = useForm({
    id: 'support-message',
    lastResult: navigation.state === 'idle' ? actionData?.result : undefined,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SupportMessageSchema }),
  })

  return (
    <main className="mx-auto grid max-w-5xl gap-12 px-4 py-16 sm:py-20 lg:grid-cols-[1fr_1.4fr]">
      <section aria-labelledby="support-title">
        <h1 id="support-title" className="text-4xl font-bold tracking-tight">
          Support
        </h1>
        <p className="mt-4 text-lg text-muted-foreground">
          Stuck, curious, or found a bug? Write to the people who build Threadwork. We answer every message,
          usually within two business days.
        </p>
        <div className="mt-8 rounded-lg border bg-card p-5">
          <h2 className="font-semibold">E-mail</h2>
          <p className="mt-2 text-sm text-muted-foreground">From your own mail program, to:</p>
          <a
            href={`mailto:${loaderData.supportEmail}`}
            className="mt-2 inline-flex items-center gap-2 font-medium text-primary underline-offset-4 hover:underline"
          >
            <Icon name="mail" className="size-5" />
            {loaderData.supportEmail}
          </a>
        </div>
        <p className="mt-6 text-sm text-muted-foreground">
          Many answers are already in the{' '}
          <Link
            to="/docs"
            prefetch="intent"
            className="font-medium text-primary underline-offset-4 hover:underline"
          >
            documentation
          </Link>
          .
        </p>
      </section>

      <section aria-labelledby="contact-title" className="rounded-xl border bg-card p-6 shadow-sm sm:p-8">
        <h2 id="contact-title" className="text-xl font-semibold">
          Send us a message
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">All fields are required.</p>

        <ActionForm
          action="/support"
          {...getFormProps(form)}
          // Our messages, in both modes, instead of the browser's built-in bubbles.
          noValidate
          // A fresh, empty form after each message sent.
          key={sent?.id ?? 'support-message'}
          className="mt-6 space-y-5"
        >
          {form.errors ? (
            <p
              id={form.errorId}
              role="alert"
              className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive"
            >
              {form.errors.join(' ')}
            </p>
          ) : null}

          <Field label="Name" errorId={fields.name.errorId} errors={fields.name.errors}>
            <Input {...getInputProps(fields.name, { type: 'text' })} autoComplete="name" />
          </Field>
          <Field label="E-mail" errorId={fields.email.errorId} errors={fields.email.errors}>
            <Input {...getInputProps(fields.email, { type: 'email' })} autoComplete="email" />
          </Field>
          <Field label="Message" errorId={fields.message.errorId} errors={fields.message.errors}>
            <Textarea {...getTextareaProps(fields.message)} rows={6} />
          </Field>

          <StatusButton isPending={isSending} pendingText="Sending…" size="lg" className="w-full sm:w-auto">
            Send message
          </StatusButton>
        </ActionForm>
      </section>
    </main>
  )
}

function Field({
  label,
  errorId,
  errors,
  children,
}: {
  label: string
  errorId: string
  errors: string[] | undefined
  children: ReactElement<{ id?: string }>
}) {
  return (
    <div>
      <Label htmlFor={children.props.id} className="block">
        {label}
      </Label>
      <div className="mt-1.5">{children}</div>
      <p id={errorId} className="mt-1.5 min-h-5 text-sm text-destructive">
        {errors?.join(' ')}
      </p>
    </div>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
