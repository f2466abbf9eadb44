import type { Page } from '@playwright/test'

/**
 * A computed style read through the DevTools protocol, so it works in the JavaScript-off
 * project too (page.evaluate needs page scripts to be allowed).
 */
export async function computedStyle(page: Page, selector: string, property: string) {
  const cdp = await page.context().newCDPSession(page)
  try {
    await cdp.send('DOM.enable')
    await cdp.send('CSS.enable')
    const { root } = await cdp.send('DOM.getDocument')
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector })
    if (!nodeId) throw new Error(`No element matches ${selector}`)
    const { computedStyle } = await cdp.send('CSS.getComputedStyleForNode', { nodeId })
    const value = computedStyle.find((entry) => entry.name === property)?.value
    if (value === undefined) throw new Error(`No computed ${property} on ${selector}`)
    return value
  } finally {
    await cdp.detach()
  }
}

/** Perceived lightness, 0 (black) to 1 (white), of a computed CSS color (oklch or rgb). */
export function lightness(color: string) {
  const oklch = /^oklch\(\s*([\d.]+)(%?)/.exec(color)
  if (oklch?.[1]) return Number(oklch[1]) / (oklch[2] ? 100 : 1)
  const rgb = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)/.exec(color)
  if (rgb) {
    const [r, g, b] = rgb.slice(1, 4).map((channel) => Number(channel) / 255) as [number, number, number]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b
  }
  throw new Error(`Cannot tell how light ${color} is`)
}

/** The hue, in degrees, of a computed CSS colour in oklch() (Tailwind 4's palette). */
export function hue(color: string) {
  const oklch = /^oklch\(\s*[\d.]+%?\s+[\d.]+\s+([\d.]+)/.exec(color)
  if (!oklch?.[1]) throw new Error(`Cannot tell the hue of ${color}`)
  return Number(oklch[1])
}
