/** A tool of the assistant as a test holds it: its input schema (a zod schema) and what it runs. */
type Tool = { inputSchema: unknown; execute?: unknown }

/** Calls a tool as the AI SDK does: its input parsed by its schema first, defaults and all. */
export async function runTool(tool: Tool, input: unknown) {
  const schema = tool.inputSchema as { parseAsync: (input: unknown) => Promise<unknown> }
  const execute = tool.execute as (input: unknown, options: unknown) => Promise<unknown>
  return execute(await schema.parseAsync(input), { toolCallId: 't', messages: [] })
}
