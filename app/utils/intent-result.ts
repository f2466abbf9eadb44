/**
 * The conform reply an action gave one form of a page whose forms share the action through an
 * `intent` field: that form shows its errors, the page's other forms stay as they were.
 */
export function resultFor<Data extends { intent?: unknown; result?: unknown }>(
  actionData: Data | undefined,
  intent: string,
): NonNullable<Data['result']> | undefined {
  return actionData && actionData.intent === intent && actionData.result
    ? (actionData.result as NonNullable<Data['result']>)
    : undefined
}
