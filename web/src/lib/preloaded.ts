/**
 * Where preloaded responses come from: in the browser, the page the server
 * sent; while the build prerenders a page (src/app/prerender.tsx), the
 * responses it renders from.
 */
let prerendering: Readonly<Record<string, unknown>> | null = null

/** The responses the page being prerendered reads, or null when done. */
export function setPrerenderedResponses(responses: Readonly<Record<string, unknown>> | null) {
  prerendering = responses
}

/**
 * A public GET response the server wrote into the page (httpx.Preloaded),
 * or undefined when the page has none or it does not parse: the caller
 * then fetches it as usual. A prerendered page's first render reads the
 * same responses in the browser as it did at build time, so hydration
 * finds the HTML it would have rendered.
 */
export function preloaded<T>(path: string): T | undefined {
  if (prerendering) return prerendering[path] as T | undefined
  const script = document.querySelector(`script[type="application/json"][data-api-path="${CSS.escape(path)}"]`)
  if (!script?.textContent) return undefined
  try {
    return JSON.parse(script.textContent) as T
  } catch {
    return undefined
  }
}
