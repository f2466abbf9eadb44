import { expect, test } from '@playwright/test'
import { type OpenAICompatibleFixture, startOpenAICompatibleServer } from '../fixtures/openai-compatible'
import { type Running, startServer, stopServer, waitUntilListening } from './app-process'

/**
 * The chat with a model connected: a server of its own whose AI_BASE_URL points at the local
 * OpenAI-compatible stand-in, so the real provider code streams over HTTP — a tool call and its
 * answer, then a provider's refusal shown as a toast with the provider's words.
 */

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'the toast of a streamed refusal needs JavaScript')

let model: OpenAICompatibleFixture
let app: Running

test.beforeAll(async () => {
  model = await startOpenAICompatibleServer(({ body }) => {
    const last = body.messages.at(-1)
    if (last?.role === 'tool') return { text: `Counted: ${String(last.content)}`, pieces: 6, delayMs: 30 }
    if (String(last?.content).includes('fail')) return { status: 401, error: 'Incorrect API key provided.' }
    return { toolCalls: [{ name: 'getMyStats', arguments: {} }] }
  })
  app = await startServer({ AI_BASE_URL: model.baseURL, AI_API_KEY: 'sk-e2e', AI_MODEL: 'stand-in-1' })
  await waitUntilListening(app)
})

test.afterAll(async () => {
  await stopServer(app)
  await model.close()
})

test('a connected model streams a tool call and its answer; its refusal is a toast', async ({ page }) => {
  test.setTimeout(60_000)
  await page.goto(`${app.origin}/signup`)
  await page.getByLabel('Name').fill('Remote Ada')
  await page.getByLabel('E-mail').fill('remote-ada@example.test')
  await page.getByLabel('Password').fill('e2e journey password')
  await page.getByRole('button', { name: 'Create account' }).click()
  // A new account is guided to onboarding first.
  await expect(page).toHaveURL(/\/onboarding$/, { timeout: 20_000 })

  await page.goto(`${app.origin}/chat`)
  await expect(page.getByText('Built-in assistant: no AI model is connected.')).toHaveCount(0)
  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.fill('How many tasks?')
  await composer.press('Enter')
  const answer = page.locator('[data-role="assistant"]').first()
  await expect(answer).toContainText('Counted your tasks')
  await expect(answer).toContainText('"total":0')
  expect(model.requests[0]?.headers.authorization).toBe('Bearer sk-e2e')
  // The composer takes a new message once the answer has finished (Enter while it streams is ignored).
  await expect(page.getByRole('button', { name: 'Regenerate' })).toBeVisible()

  await composer.fill('Please fail now')
  await composer.press('Enter')
  await expect(page.getByText('Incorrect API key provided.')).toBeVisible()
  await expect(page.getByText(/at \w+ \(/)).toHaveCount(0)
})
