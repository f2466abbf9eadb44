import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { database } from '~/db/client.server'
import type { ApiTokenScope } from '~/domain/api-tokens'
import { isDomainError } from '~/services/errors'
import type { SessionUser } from '~/services/session-user'
import { DEFAULT_TIME_ZONE, todayIn } from '~/utils/calendar'
import { TOOLS, type ToolDefinition } from './tools.server'

/**
 * The Model Context Protocol's Streamable HTTP transport over the tools of ./tools.server.ts
 * (docs/decisions/042-mcp-first-and-personal-tokens.md). Stateless: a server and a transport per
 * request, no `Mcp-Session-Id`, answers as JSON, so any instance answers any request and nothing
 * outlives it.
 */

export const READ_TOKEN_TOOL_MESSAGE =
  'This token can only read. Make a read and write token to let an agent change things.'

export type McpCaller = { user: SessionUser; scope: ApiTokenScope; timeZone: string | null }

/** What the version a client sees says. */
const SERVER_INFO = { name: 'threadwork', version: '1.0.0' }

function textResult(text: string, isError = false): CallToolResult {
  return { content: [{ type: 'text', text }], isError }
}

/** Structured content must be an object: a list arrives as `{ items }`. Dates travel as ISO strings. */
function resultOf(value: unknown): CallToolResult {
  const plain = JSON.parse(JSON.stringify(value ?? null)) as unknown
  const structured =
    plain !== null && typeof plain === 'object' && !Array.isArray(plain)
      ? (plain as Record<string, unknown>)
      : { items: plain }
  return { content: [{ type: 'text', text: JSON.stringify(plain, null, 2) }], structuredContent: structured }
}

function register(server: McpServer, name: string, definition: ToolDefinition, caller: McpCaller) {
  server.registerTool(
    name,
    {
      title: definition.title,
      description: definition.description,
      inputSchema: definition.inputSchema,
      annotations: {
        title: definition.title,
        readOnlyHint: definition.isReadOnly,
        ...definition.hints,
        openWorldHint: false,
      },
    },
    async (input: unknown) => {
      if (!definition.isReadOnly && caller.scope === 'read') return textResult(READ_TOKEN_TOOL_MESSAGE, true)
      const context = {
        db: database(),
        user: caller.user,
        today: todayIn(caller.timeZone ?? DEFAULT_TIME_ZONE),
      }
      try {
        return resultOf(await definition.run(context, input as never))
      } catch (error) {
        // A refusal is the person's to read, in the words the pages use; anything else is ours.
        if (isDomainError(error)) return textResult(error.message, true)
        console.error('MCP tool failed', name, error)
        return textResult('Something went wrong.', true)
      }
    },
  )
}

/** Answers one /mcp request for a caller whose token is already checked. */
export async function handleMcp(request: Request, caller: McpCaller): Promise<Response> {
  const server = new McpServer(SERVER_INFO, {
    instructions:
      'Threadwork: a task list shared between people. Tools act as the person whose token this is, and see only what they may see.',
  })
  for (const [name, definition] of Object.entries(TOOLS)) register(server, name, definition, caller)
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  })
  await server.connect(transport)
  try {
    return await transport.handleRequest(request)
  } finally {
    await server.close()
  }
}
