import { useFetcher } from 'react-router'
import { ActionForm } from '~/components/action-form'
import { StatusButton } from '~/components/ui/button'
import { Checkbox } from '~/components/ui/checkbox'
import { SettingsSection } from './section'

/** Which e-mails reach the person: mentions while they are away, and tasks on the day they are due. */
export function NotificationsSection({
  emailOnMention,
  emailOnDue,
}: {
  emailOnMention: boolean
  emailOnDue: boolean
}) {
  return (
    <SettingsSection
      title="Notifications"
      description="Mentions always wait in your notifications, behind the bell at the top of every page. While you are away, they can reach you by e-mail too: several in one e-mail, a few minutes after the first. On the day tasks assigned to you (or yours that nobody is assigned) are due, an e-mail at 8:00 in your time zone lists them."
    >
      <div className="flex flex-col gap-6">
        <EmailSettingForm
          intent="mention-emails"
          name="emailOnMention"
          isOn={emailOnMention}
          label="E-mail me when I'm mentioned"
          button="Save notification settings"
        />
        <EmailSettingForm
          intent="due-emails"
          name="emailOnDue"
          isOn={emailOnDue}
          label="E-mail me on the day a task is due"
          button="Save reminder settings"
        />
      </div>
    </SettingsSection>
  )
}

/** One e-mail's checkbox, in a form of its own (one intent each, as the settings action reads them). */
function EmailSettingForm(props: {
  intent: string
  name: string
  isOn: boolean
  label: string
  button: string
}) {
  const fetcher = useFetcher()
  const isPending = fetcher.state !== 'idle'
  return (
    <ActionForm
      fetcher={fetcher}
      action="/settings"
      intent={props.intent}
      className="flex flex-col gap-4"
      preventScrollReset
    >
      {/* Keyed by the saved value, so the box shows it again after saving. */}
      <Checkbox
        key={String(props.isOn)}
        name={props.name}
        value="on"
        defaultChecked={props.isOn}
        label={props.label}
      />
      <StatusButton isPending={isPending} pendingText="Saving…" variant="outline" className="self-start">
        {props.button}
      </StatusButton>
    </ActionForm>
  )
}
