import { STATUSES } from '~/domain/constants'
import type { Intent } from './intents'
import type { AssistantTask } from './tools.server'

/**
 * The built-in assistant's words: markdown built from a tool's result, exact to the row. Links are
 * the app's own paths, so the chat renders them as links.
 */

export const NO_MODEL_NOTICE =
  'No AI model is connected, so you are talking to the built-in assistant. To chat with a language model, set `AI_BASE_URL` (with `AI_API_KEY` and `AI_MODEL`) to any OpenAI-compatible endpoint — OpenAI, Ollama, llama.cpp, vLLM or LM Studio. See [the AI docs](/docs/ai).'

export const HELP_ANSWER = `I answer from your tasks and the docs. Try:

- How many tasks do I have?
- What is in progress?
- List my high priority tasks
- Find tasks about invoices
- Summarise my week
- What is due this week?
- What is overdue?
- What is assigned to me?
- What do the docs say about sharing?
- Create a task called Write the report
- Mark Write the report as done

${NO_MODEL_NOTICE}`

export type ToolOutcome = { toolName: string; output?: unknown; denied?: true; error?: string }

type Line = Pick<AssistantTask, 'text' | 'status' | 'priority' | 'link'> &
  Partial<Pick<AssistantTask, 'dueDate'>>
type Listed = { total: number; tasks: Line[] }

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`
const escapeMarkdown = (text: string) => text.replace(/([\\`*_[\]<>])/g, '\\$1')
const taskLink = (task: Pick<Line, 'text' | 'link'>) => `[${escapeMarkdown(task.text)}](${task.link})`

function bullets({ total, tasks }: Listed) {
  const lines = tasks.map(
    (task) =>
      `- ${taskLink(task)} — ${task.status}, ${task.priority} priority${task.dueDate ? `, due ${task.dueDate}` : ''}`,
  )
  if (total > tasks.length) lines.push(`\nShowing the ${tasks.length} most recently changed.`)
  return lines.join('\n')
}

function describeFilter(intent: Extract<Intent, { kind: 'list' }>) {
  const parts = [
    intent.priority ? `${intent.priority} priority` : null,
    intent.status ? `“${intent.status}”` : null,
  ]
  if (!parts[0] && !parts[1]) return ''
  return ` ${[parts[0] ? `of ${parts[0]}` : null, parts[1] ? `in ${parts[1]}` : null].filter(Boolean).join(' ')}`
}

/** "overdue", "due this week and assigned to you", …: what a due question asked for. */
function describeDue(intent: Extract<Intent, { kind: 'due' }>) {
  const when = { overdue: 'overdue', today: 'due today', week: 'due this week' } as const
  const parts = [intent.due ? when[intent.due] : null, intent.assignedToMe ? 'assigned to you' : null]
  return parts.filter(Boolean).join(' and ')
}

export function composeAnswer(intent: Intent, outcome: ToolOutcome): string {
  if (outcome.denied) {
    return outcome.toolName === 'createTask'
      ? 'Alright, I did not create the task.'
      : 'Alright, I left the task as it was.'
  }
  if (outcome.error) return `That did not work: ${outcome.error}`
  const output = outcome.output as Record<string, unknown>
  if (typeof output?.error === 'string') return `That did not work: ${output.error}`

  switch (outcome.toolName) {
    case 'getMyStats': {
      const { total, byStatus } = output as { total: number; byStatus: Record<string, number> }
      if (total === 0)
        return 'You have no tasks yet. Ask me to create one, or add it on the [task list](/task).'
      const parts = STATUSES.map((status) => `${byStatus[status] ?? 0} ${status}`)
      return `You own **${plural(total, 'task')}**: ${parts.join(', ')}.`
    }
    case 'listMyTasks': {
      const listed = output as Listed
      if (intent.kind === 'week') {
        if (listed.total === 0) return 'You changed no tasks in the last 7 days.'
        const done = listed.tasks.filter((task) => task.status === 'Completed').length
        const moving = listed.tasks.filter((task) => task.status === 'In Progress').length
        return `In the last 7 days you worked on **${plural(listed.total, 'task')}**: ${done} completed, ${moving} in progress, ${listed.total - done - moving} not started.\n\n${bullets(listed)}`
      }
      if (intent.kind === 'due') {
        const what = describeDue(intent)
        if (listed.total === 0) return `Nothing is ${what}.`
        return `**${plural(listed.total, 'task')}** ${listed.total === 1 ? 'is' : 'are'} ${what}:\n\n${bullets(listed)}`
      }
      const filter = intent.kind === 'list' ? describeFilter(intent) : ''
      if (listed.total === 0) return `You have no tasks${filter}.`
      return `You have **${plural(listed.total, 'task')}**${filter}:\n\n${bullets(listed)}`
    }
    case 'searchMyTasks': {
      const listed = output as Listed
      const query = intent.kind === 'search' || intent.kind === 'set-status' ? intent.query : ''
      if (listed.total === 0) return `None of your tasks matches “${escapeMarkdown(query)}”.`
      const lead =
        intent.kind === 'set-status'
          ? `Several of your tasks match “${escapeMarkdown(query)}”. Which one? Say its full title.`
          : `${plural(listed.total, 'task')} of yours ${listed.total === 1 ? 'matches' : 'match'} “${escapeMarkdown(query)}”:`
      return `${lead}\n\n${bullets(listed)}`
    }
    case 'searchDocs': {
      const { results } = output as { results: { title: string; link: string; quote: string }[] }
      const query = intent.kind === 'docs' ? intent.query : ''
      if (results.length === 0)
        return `The docs say nothing about “${escapeMarkdown(query)}”. Browse them all at [/docs](/docs).`
      const quotes = results.map(
        (hit) => `> ${escapeMarkdown(hit.quote.trim())}\n\n— [${escapeMarkdown(hit.title)}](${hit.link})`,
      )
      return `Here is what the docs say about “${escapeMarkdown(query)}”:\n\n${quotes.join('\n\n')}`
    }
    case 'createTask': {
      const task = output as Line
      return `Created ${taskLink(task)} — ${task.status}, ${task.priority} priority.`
    }
    case 'setTaskStatus': {
      const task = output as Line
      return `${taskLink(task)} is now **${task.status}**.`
    }
    default:
      return HELP_ANSWER
  }
}
