import { getFormProps, useForm } from '@conform-to/react'
import { getZodConstraint } from '@conform-to/zod/v4'
import { Link, redirect } from 'react-router'
import { requireUser } from '~/auth/context.server'
import { ActionForm } from '~/components/action-form'
import { Avatar } from '~/components/avatar'
import { RouteErrorScreen } from '~/components/error-screens'
import { CheckboxField, ErrorList, Field, SelectField } from '~/components/forms'
import { ShareWithField, TASK_FIELD_CONSTRAINTS } from '~/components/task-form'
import { Button, StatusButton } from '~/components/ui/button'
import { database } from '~/db/client.server'
import { PRIORITIES } from '~/domain/constants'
import { handleForm } from '~/http/form-action.server'
import { UpdateProfileSchema } from '~/services/account-schemas'
import { finishOnboarding, getOnboarding, shareFirstTask } from '~/services/onboarding.server'
import { OnboardingStepSchema, ShareFirstTaskSchema } from '~/services/onboarding-schemas'
import { nextStep, ONBOARDING_STEPS, type OnboardingStep } from '~/services/onboarding-steps'
import { getAccount, updateProfile } from '~/services/profile.server'
import { TaskFieldsSchema } from '~/services/tasks/task-schemas'
import { createTask } from '~/services/tasks/writes.server'
import { redirectWithToast } from '~/toast.server'
import { cn } from '~/utils/cn'
import { readFormData } from '~/utils/form-data.server'
import { resultFor } from '~/utils/intent-result'
import { useIsPending } from '~/utils/pending'
import { z } from '~/utils/zod'
import type { Route } from './+types/onboarding'

export const meta: Route.MetaFunction = () => [{ title: 'Get started | Threadwork' }]

const STEP_TITLES: Record<OnboardingStep, string> = {
  profile: 'Confirm your name and avatar',
  task: 'Create your first task',
  share: 'Share it, or make it public',
  explore: 'Where to go next',
}

const stepUrl = (step: OnboardingStep) => `/onboarding?step=${step}`

/**
 * First-run guidance after sign-up, one step per page so every step is a plain form that works
 * without JavaScript. Any step can be skipped; finishing records it and lands on the dashboard.
 * Someone who has finished is not guided again.
 */
export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context, url)
  const db = database()
  const [account, onboarding] = await Promise.all([getAccount(db, user.id), getOnboarding(db, user)])
  if (onboarding.isFinished) throw redirect('/dashboard')
  const step = OnboardingStepSchema.catch('profile').parse(url.searchParams.get('step'))
  return { step, account: { name: account.name, image: account.image }, onboarding }
}

/** The steps' forms, each named by its hidden `intent` field. */
const OnboardingIntent = z.discriminatedUnion('intent', [
  UpdateProfileSchema.safeExtend({ intent: z.literal('profile') }),
  TaskFieldsSchema.safeExtend({ intent: z.literal('task') }),
  ShareFirstTaskSchema.safeExtend({ intent: z.literal('share') }),
  // Skipping names the step it leaves; a step it does not know finishes the guide.
  z.object({ intent: z.literal('skip'), step: OnboardingStepSchema.optional().catch(undefined) }),
  z.object({ intent: z.literal('finish') }),
])

export async function action({ request, context, url }: Route.ActionArgs) {
  const { user } = await requireUser(request, context, url)
  const db = database()
  return handleForm(await readFormData(request), OnboardingIntent, {
    profile: async ({ intent: _intent, ...profile }) => {
      await updateProfile(db, user.id, profile)
      return redirect(stepUrl('task'))
    },
    task: async ({ intent: _intent, ...fields }) => {
      await createTask(db, user, fields)
      return redirect(stepUrl('share'))
    },
    share: async ({ intent: _intent, ...share }) => {
      await shareFirstTask(db, user, share)
      return redirect(stepUrl('explore'))
    },
    skip: async ({ step }) => {
      const next = step ? nextStep(step) : null
      if (next) return redirect(stepUrl(next))
      await finishOnboarding(db, user)
      return redirect('/dashboard')
    },
    finish: async () => {
      await finishOnboarding(db, user)
      return redirectWithToast('/dashboard', { type: 'success', title: 'You are all set' })
    },
  })
}

type ActionData = Route.ComponentProps['actionData']

export default function Onboarding({ loaderData, actionData }: Route.ComponentProps) {
  const { step, account, onboarding } = loaderData
  const index = ONBOARDING_STEPS.indexOf(step)
  return (
    <main className="mx-auto flex max-w-xl flex-col gap-6 px-4 py-10">
      <header className="flex flex-col gap-3">
        <p className="text-sm text-muted-foreground">
          Step {index + 1} of {ONBOARDING_STEPS.length}
        </p>
        <h1 className="text-2xl font-semibold">{STEP_TITLES[step]}</h1>
        <nav aria-label="Setup steps">
          <ol className="flex gap-2">
            {ONBOARDING_STEPS.map((each, position) => (
              <li key={each} className="flex-1">
                <Link
                  to={stepUrl(each)}
                  aria-current={each === step ? 'step' : undefined}
                  className={cn('block h-1.5 rounded-full', position <= index ? 'bg-primary' : 'bg-muted')}
                >
                  <span className="sr-only">
                    Step {position + 1}: {STEP_TITLES[each]}
                  </span>
                </Link>
              </li>
            ))}
          </ol>
        </nav>
      </header>

      <section className="rounded-lg border bg-card p-5">
        {step === 'profile' ? (
          <ProfileStep account={account} result={resultFor(actionData, 'profile')} />
        ) : step === 'task' ? (
          <TaskStep result={resultFor(actionData, 'task')} />
        ) : step === 'share' ? (
          <ShareStep task={onboarding.taskToShare} result={resultFor(actionData, 'share')} />
        ) : (
          <ExploreStep />
        )}
      </section>

      <div className="flex flex-wrap items-center justify-between gap-3">
        {step === 'explore' ? null : (
          <ActionForm intent="skip">
            <input type="hidden" name="step" value={step} />
            <Button type="submit" variant="ghost">
              Skip this step
            </Button>
          </ActionForm>
        )}
        <ActionForm intent="finish" className="ml-auto">
          <Button type="submit" variant={step === 'explore' ? 'default' : 'link'}>
            {step === 'explore' ? 'Go to my dashboard' : 'Skip setup'}
          </Button>
        </ActionForm>
      </div>
    </main>
  )
}

type StepResult = NonNullable<ActionData>['result'] | undefined

function ProfileStep({
  account,
  result,
}: {
  account: { name: string; image: string | null }
  result: StepResult
}) {
  const isPending = useIsPending({ intent: 'profile' })
  const [form, fields] = useForm({
    id: 'onboarding-profile',
    lastResult: result,
    constraint: getZodConstraint(UpdateProfileSchema),
    defaultValue: { name: account.name, image: account.image ?? '' },
  })
  return (
    <ActionForm intent="profile" className="flex flex-col gap-4" {...getFormProps(form)}>
      <p className="text-muted-foreground">This is how people you work with see you on tasks and comments.</p>
      <div className="flex items-center gap-3">
        <Avatar name={account.name} image={account.image} size="lg" />
        <span className="text-sm text-muted-foreground">
          Your avatar: a picture's address, or your initials.
        </span>
      </div>
      <ErrorList id={form.errorId} errors={form.errors} />
      <Field label="Name" meta={fields.name} autoComplete="name" />
      <Field label="Image URL (optional)" meta={fields.image} type="url" placeholder="https://…" />
      <StatusButton isPending={isPending} pendingText="Saving…" className="self-start">
        Save and continue
      </StatusButton>
    </ActionForm>
  )
}

function TaskStep({ result }: { result: StepResult }) {
  const isPending = useIsPending({ intent: 'task' })
  const [form, fields] = useForm<z.input<typeof TaskFieldsSchema>>({
    id: 'onboarding-task',
    lastResult: result,
    // The schema's limits hide behind its preprocessing; the task form's constraints state them.
    constraint: { ...getZodConstraint(TaskFieldsSchema), text: TASK_FIELD_CONSTRAINTS.text },
    defaultValue: { priority: 'medium' },
  })
  return (
    <ActionForm intent="task" className="flex flex-col gap-4" {...getFormProps(form)}>
      <p className="text-muted-foreground">Something you mean to do this week. You can add details later.</p>
      <ErrorList id={form.errorId} errors={form.errors} />
      <Field label="Title" meta={fields.text} placeholder="What needs doing?" />
      <SelectField label="Priority" meta={fields.priority} options={PRIORITIES} />
      <StatusButton isPending={isPending} pendingText="Creating…" className="self-start">
        Create task
      </StatusButton>
    </ActionForm>
  )
}

function ShareStep({
  task,
  result,
}: {
  task: { id: string; text: string; isPublic: boolean } | null
  result: StepResult
}) {
  const isPending = useIsPending({ intent: 'share' })
  const [form, fields] = useForm<z.input<typeof ShareFirstTaskSchema>>({
    id: 'onboarding-share',
    lastResult: result,
    constraint: getZodConstraint(ShareFirstTaskSchema),
  })
  if (!task) {
    return (
      <p className="text-muted-foreground">
        You have no task to share yet.{' '}
        <Link to={stepUrl('task')} className="text-primary underline underline-offset-4">
          Create your first task
        </Link>{' '}
        first, or skip this step.
      </p>
    )
  }
  return (
    <ActionForm intent="share" className="flex flex-col gap-4" {...getFormProps(form)}>
      <p className="text-muted-foreground">
        Work goes better together. Share <strong className="text-foreground">{task.text}</strong> with the
        people who should see it: they can follow it and change its status once they have verified their
        address.
      </p>
      <input type="hidden" name="taskId" value={task.id} />
      <ErrorList id={form.errorId} errors={form.errors} />
      <ShareWithField meta={fields.sharedWith} />
      {task.isPublic ? (
        <p className="text-sm text-muted-foreground">This task is already public.</p>
      ) : (
        <CheckboxField label="Make it public (anyone with the link can read it)" meta={fields.isPublic} />
      )}
      <StatusButton isPending={isPending} pendingText="Sharing…" className="self-start">
        Share and continue
      </StatusButton>
    </ActionForm>
  )
}

function ExploreStep() {
  return (
    <div className="flex flex-col gap-4">
      <p className="text-muted-foreground">You are ready. Two places worth a look:</p>
      <ul className="flex flex-col gap-3">
        <li>
          <Link to="/chat" className="font-medium text-primary underline underline-offset-4">
            AI Chat
          </Link>
          <span className="text-muted-foreground">
            {' '}
            — ask about your tasks, plan a week, and save the chats you want to keep.
          </span>
        </li>
        <li>
          <Link to="/docs" className="font-medium text-primary underline underline-offset-4">
            Docs
          </Link>
          <span className="text-muted-foreground">
            {' '}
            — how sharing, comments and mentions work, and the API.
          </span>
        </li>
      </ul>
      <p className="text-muted-foreground">Your dashboard keeps count of what you finish, week by week.</p>
    </div>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
