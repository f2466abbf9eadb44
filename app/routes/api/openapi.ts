import { openApiDocument } from '~/rpc/openapi.server'

/**
 * The OpenAPI document of /api/rpc, generated from the router (app/rpc/openapi.server.ts): what
 * each procedure takes, for code generators and readers. /docs/rpc renders the same document.
 */
export async function loader() {
  return Response.json(await openApiDocument(), { headers: { 'Cache-Control': 'public, max-age=300' } })
}
