import type { UIMessage } from 'ai'
import type { ReactNode } from 'react'
import { cn } from '~/utils/cn'
import { Markdown } from './markdown'

/**
 * A conversation as the chat page and a saved chat draw it: the person's messages on the right,
 * the assistant's answers as markdown, and each tool the assistant used as one compact line whose
 * result unfolds. A tool waiting for approval shows what it will do; `approval` draws the
 * buttons (the chat page has them, a read-only saved chat does not).
 */

type Part = UIMessage['parts'][number]
export type ToolPart = Extract<Part, { toolCallId: string }>

const TOOL_LABELS: Record<string, string> = {
  listMyTasks: 'Listed your tasks',
  searchMyTasks: 'Searched your tasks',
  getMyStats: 'Counted your tasks',
  searchDocs: 'Searched the docs',
  createTask: 'Create a task',
  updateTask: 'Change a task',
  setTaskStatus: 'Change a task’s status',
}

function toolNameOf(part: ToolPart) {
  return 'toolName' in part ? String(part.toolName) : part.type.replace(/^tool-/, '')
}

/** The title of a task an earlier tool of the same answer listed, for the approval box. */
function titleOf(message: UIMessage, taskId: unknown) {
  for (const part of message.parts) {
    const listed =
      'output' in part ? (part.output as { tasks?: { id: string; text: string }[] } | undefined) : undefined
    const task = listed?.tasks?.find((entry) => entry.id === taskId)
    if (task) return task.text
  }
  return null
}

const taskNamed = (message: UIMessage, taskId: unknown) => {
  const title = titleOf(message, taskId)
  return title ? `“${title}”` : `task ${String(taskId ?? '')}`
}

/** Every field a tool was given besides those named: the person approves all it will write. */
function otherFields(input: Record<string, unknown>, ...named: string[]) {
  const fields = Object.entries(input).filter(([name, value]) => !named.includes(name) && value !== undefined)
  return fields.map(([name, value]) => `${name}: ${value === null ? 'none' : String(value)}`).join(', ')
}

/** What a tool that changes data will do, in words, for the approval box. */
export function describeToolCall(part: ToolPart, message: UIMessage) {
  const input = (part.input ?? {}) as Record<string, unknown>
  switch (toolNameOf(part)) {
    case 'createTask': {
      const fields = otherFields(input, 'text')
      return `Create the task “${String(input.text ?? '')}”${fields ? ` (${fields})` : ''}.`
    }
    case 'updateTask':
      return `Change ${taskNamed(message, input.taskId)}: ${otherFields(input, 'taskId') || 'nothing'}.`
    case 'setTaskStatus':
      return `Set the status of ${taskNamed(message, input.taskId)} to “${String(input.status ?? '')}”.`
    default:
      return `Run ${toolNameOf(part)}.`
  }
}

function ToolLine({
  part,
  message,
  approval,
}: {
  part: ToolPart
  message: UIMessage
  approval?: (part: ToolPart) => ReactNode
}) {
  const name = toolNameOf(part)
  if (part.state === 'approval-requested') {
    return (
      <fieldset className="rounded-md border border-amber-500/50 bg-amber-500/10 p-3 text-sm">
        <legend className="px-1 font-medium">Approval needed</legend>
        <p>{describeToolCall(part, message)}</p>
        {approval ? <div className="mt-2 flex gap-2">{approval(part)}</div> : null}
      </fieldset>
    )
  }
  const state =
    part.state === 'output-available'
      ? 'done'
      : part.state === 'output-denied' ||
          (part.state === 'approval-responded' && part.approval?.approved === false)
        ? 'denied'
        : part.state === 'output-error'
          ? 'failed'
          : 'running…'
  return (
    <details className="rounded-md border bg-muted/40 px-3 py-1.5 text-sm">
      <summary className="cursor-pointer text-muted-foreground">
        {TOOL_LABELS[name] ?? name} <span className="text-xs">· {state}</span>
      </summary>
      <pre className="mt-2 max-h-60 overflow-auto whitespace-pre-wrap break-words font-mono text-xs">
        {JSON.stringify({ input: part.input, output: 'output' in part ? part.output : undefined }, null, 2)}
      </pre>
    </details>
  )
}

function ChatMessage({
  message,
  approval,
  footer,
}: {
  message: UIMessage
  approval?: (part: ToolPart) => ReactNode
  footer?: ReactNode
}) {
  const isUser = message.role === 'user'
  return (
    <li className={cn('flex flex-col gap-2', isUser ? 'items-end' : 'items-start')}>
      <span className="sr-only">{isUser ? 'You said:' : 'Assistant said:'}</span>
      <div
        className={cn(
          'flex max-w-[min(42rem,100%)] flex-col gap-2 rounded-lg px-4 py-3',
          isUser ? 'bg-primary text-primary-foreground' : 'border bg-card',
        )}
        data-role={message.role}
      >
        {message.parts.map((part, index) => {
          const key = `${message.id}-${index}`
          if (part.type === 'text') {
            return isUser ? (
              <p key={key} className="whitespace-pre-wrap break-words">
                {part.text}
              </p>
            ) : (
              <Markdown key={key} text={part.text} />
            )
          }
          if ('toolCallId' in part)
            return <ToolLine key={key} part={part} message={message} approval={approval} />
          return null
        })}
      </div>
      {footer}
    </li>
  )
}

export function ChatMessages({
  messages,
  approval,
  footerOf,
}: {
  messages: UIMessage[]
  approval?: (part: ToolPart) => ReactNode
  footerOf?: (message: UIMessage, index: number) => ReactNode
}) {
  return (
    <ol className="flex flex-col gap-4" aria-label="Messages">
      {messages.map((message, index) => (
        <ChatMessage
          key={message.id}
          message={message}
          approval={approval}
          footer={footerOf?.(message, index)}
        />
      ))}
    </ol>
  )
}
