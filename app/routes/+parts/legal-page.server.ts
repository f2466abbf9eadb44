import { data } from 'react-router'
import { env } from '~/env.server'
import { contentVersion, findPage, renderEntry } from '~/services/content.server'
import { publicCacheHeaders } from '~/utils/public-cache.server'

/**
 * /terms and /privacy: a page from content/pages, with the support address from configuration
 * filled in where the text says `<SupportEmail />`.
 */
export async function legalPageData(name: 'terms' | 'privacy', request: Request) {
  const page = await findPage(name)
  if (!page) throw data({ backHref: '/' }, { status: 404 })
  const [rendered, version] = await Promise.all([
    renderEntry(page, { supportEmail: env().SUPPORT_EMAIL }),
    contentVersion(['pages']),
  ])
  return data(
    { title: page.title, description: page.description, updated: page.updated, html: rendered.html },
    // The address is part of the page, so a new address is a new version.
    { headers: publicCacheHeaders(request, `${version}.${env().SUPPORT_EMAIL}`) },
  )
}
