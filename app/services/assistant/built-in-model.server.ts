import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3ToolResultOutput,
} from '@ai-sdk/provider'
import { composeAnswer, HELP_ANSWER, type ToolOutcome } from './answers'
import { type Intent, recogniseIntent } from './intents'
import type { AssistantTask } from './tools.server'

/**
 * The assistant that answers when no model is configured: a language model of our own, speaking
 * the provider spec (LanguageModelV3), so it runs through the same `streamText` pipeline, the same
 * tools and the same approvals as a remote model. Each turn it either calls the tool the person's
 * intent needs, or — once the tool answered — streams an answer built from the tool's result.
 */

export type BuiltInModelOptions = {
  /** Pause between streamed words, so the answer arrives as a model's would. */
  wordDelayMs?: number
}

type ToolCall = { toolName: string; input: Record<string, unknown> }

export function builtInModel({ wordDelayMs = 15 }: BuiltInModelOptions = {}): LanguageModelV3 {
  return {
    specificationVersion: 'v3',
    provider: 'threadwork',
    modelId: 'built-in-assistant',
    supportedUrls: {},
    async doGenerate() {
      throw new Error('The built-in assistant only streams.')
    },
    async doStream(options: LanguageModelV3CallOptions) {
      const step = nextStep(options.prompt)
      return { stream: streamOf(step, wordDelayMs, options.abortSignal) }
    },
  }
}

type Step = { kind: 'call'; call: ToolCall } | { kind: 'answer'; text: string }

/** What to do next, from the conversation so far. */
function nextStep(prompt: LanguageModelV3Prompt): Step {
  const intent = recogniseIntent(lastUserText(prompt))
  const outcomes = toolOutcomesSinceLastUser(prompt)
  const last = outcomes.at(-1)
  if (!last) {
    const call = firstCall(intent)
    return call ? { kind: 'call', call } : { kind: 'answer', text: HELP_ANSWER }
  }
  // Changing a status by name is two steps: find the task, then change it (which asks approval).
  if (intent.kind === 'set-status' && last.toolName === 'searchMyTasks' && last.output) {
    const match = singleMatch(last.output, intent.query)
    if (match)
      return {
        kind: 'call',
        call: { toolName: 'setTaskStatus', input: { taskId: match, status: intent.status } },
      }
  }
  return { kind: 'answer', text: composeAnswer(intent, last) }
}

function firstCall(intent: Intent): ToolCall | null {
  switch (intent.kind) {
    case 'create':
      return {
        toolName: 'createTask',
        input: { text: intent.title, ...(intent.priority ? { priority: intent.priority } : {}) },
      }
    case 'set-status':
      return { toolName: 'searchMyTasks', input: { query: intent.query } }
    case 'docs':
      return { toolName: 'searchDocs', input: { query: intent.query } }
    case 'week':
      return { toolName: 'listMyTasks', input: { changedWithinDays: 7 } }
    case 'due': {
      const { kind: _kind, ...filters } = intent
      return { toolName: 'listMyTasks', input: filters }
    }
    case 'count':
      return { toolName: 'getMyStats', input: {} }
    case 'list': {
      const { kind: _kind, ...filters } = intent
      return { toolName: 'listMyTasks', input: filters }
    }
    case 'search':
      return { toolName: 'searchMyTasks', input: { query: intent.query } }
    case 'help':
      return null
  }
}

/** The one task a name points at: the only match, or the only one whose title is exactly it. */
function singleMatch(output: unknown, query: string): string | null {
  const tasks = (output as { tasks?: Pick<AssistantTask, 'id' | 'text'>[] }).tasks ?? []
  if (tasks.length === 1) return tasks[0]?.id ?? null
  const exact = tasks.filter((task) => task.text.toLowerCase() === query.toLowerCase())
  return exact.length === 1 ? (exact[0]?.id ?? null) : null
}

function lastUserText(prompt: LanguageModelV3Prompt) {
  const message = prompt.findLast((entry) => entry.role === 'user')
  if (message?.role !== 'user') return ''
  return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n')
}

function outputValue(output: LanguageModelV3ToolResultOutput): Omit<ToolOutcome, 'toolName'> {
  switch (output.type) {
    case 'json':
      return { output: output.value }
    case 'text':
      return { output: output.value }
    case 'execution-denied':
      return { denied: true }
    case 'error-text':
      return { error: output.value }
    case 'error-json':
      return { error: JSON.stringify(output.value) }
    default:
      return { error: 'The tool answered in a form the built-in assistant cannot read.' }
  }
}

function toolOutcomesSinceLastUser(prompt: LanguageModelV3Prompt): ToolOutcome[] {
  const lastUser = prompt.findLastIndex((entry) => entry.role === 'user')
  return prompt
    .slice(lastUser + 1)
    .flatMap((entry) =>
      entry.role === 'tool' || entry.role === 'assistant'
        ? entry.content.flatMap((part) =>
            part.type === 'tool-result' ? [{ toolName: part.toolName, ...outputValue(part.output) }] : [],
          )
        : [],
    )
}

const ZERO_USAGE = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
}

function streamOf(step: Step, wordDelayMs: number, signal: AbortSignal | undefined) {
  return new ReadableStream<LanguageModelV3StreamPart>({
    async start(controller) {
      controller.enqueue({ type: 'stream-start', warnings: [] })
      if (step.kind === 'call') {
        controller.enqueue({
          type: 'tool-call',
          toolCallId: `call-${crypto.randomUUID()}`,
          toolName: step.call.toolName,
          input: JSON.stringify(step.call.input),
        })
        controller.enqueue({
          type: 'finish',
          usage: ZERO_USAGE,
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        })
        controller.close()
        return
      }
      const id = `text-${crypto.randomUUID()}`
      controller.enqueue({ type: 'text-start', id })
      for (const word of step.text.match(/\S+\s*|\s+/g) ?? []) {
        if (signal?.aborted) break
        controller.enqueue({ type: 'text-delta', id, delta: word })
        if (wordDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, wordDelayMs))
      }
      controller.enqueue({ type: 'text-end', id })
      controller.enqueue({
        type: 'finish',
        usage: ZERO_USAGE,
        finishReason: { unified: 'stop', raw: 'stop' },
      })
      controller.close()
    },
  })
}
