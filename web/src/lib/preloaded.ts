/**
 * A public GET response the server wrote into the page (httpx.Preloaded),
 * or undefined when the page has none or it does not parse: the caller
 * then fetches it as usual.
 */
export function preloaded<T>(path: string): T | undefined {
  const script = document.querySelector(`script[type="application/json"][data-api-path="${CSS.escape(path)}"]`)
  if (!script?.textContent) return undefined
  try {
    return JSON.parse(script.textContent) as T
  } catch {
    return undefined
  }
}
