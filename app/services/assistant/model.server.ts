import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { LanguageModelV3 } from '@ai-sdk/provider'
import { type Env, env } from '~/env.server'
import { builtInModel } from './built-in-model.server'

/**
 * The model the chat talks to: any OpenAI-compatible endpoint when `AI_BASE_URL` is set, else the
 * built-in assistant. Both are LanguageModelV3, so everything after this line is the same.
 */
export function chatModel(
  config: Pick<Env, 'AI_BASE_URL' | 'AI_API_KEY' | 'AI_MODEL' | 'AI_ASSISTANT_WORD_DELAY_MS'> = env(),
): LanguageModelV3 {
  if (!config.AI_BASE_URL) return builtInModel({ wordDelayMs: config.AI_ASSISTANT_WORD_DELAY_MS })
  const provider = createOpenAICompatible({
    name: 'openai-compatible',
    baseURL: config.AI_BASE_URL,
    apiKey: config.AI_API_KEY,
    includeUsage: true,
  })
  return provider.chatModel(config.AI_MODEL)
}

export function isModelConnected(config: Pick<Env, 'AI_BASE_URL'> = env()) {
  return Boolean(config.AI_BASE_URL)
}
