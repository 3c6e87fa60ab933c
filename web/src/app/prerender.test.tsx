import { act, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest'
import { json, mockApi, professionsBody, siteFactsBody } from '@/test/api-mock'
import { renderPage } from './prerender'
import { start } from './start'

const pricing = {
  key: 'pricing',
  profession: 'dental',
  path: '/dental/pricing',
  title: 'Pricing',
  description: 'Plans.',
  html: '<h2 id="refund">Can I get a refund?</h2><p>Yes.</p>',
  headings: [{ id: 'refund', text: 'Can I get a refund?', level: 2 }],
  faq: [{ question: 'Can I get a refund?', answerHtml: '<p>Yes, within 7 days.</p>', answer: 'Yes, within 7 days.' }],
}

const responses = { '/api/professions': professionsBody, '/api/site': { ...siteFactsBody, company: 'Acme & Sons' }, '/api/site/pages/dental/pricing': pricing }

/** The page as the server sends it: the build's HTML and the responses it was rendered from. */
function serve(path: string, html: string) {
  window.history.replaceState(null, '', path)
  document.body.innerHTML = `<div id="root">${html}</div>`
  for (const [api, body] of Object.entries(responses)) {
    const script = document.createElement('script')
    script.type = 'application/json'
    script.dataset.apiPath = api
    script.textContent = JSON.stringify(body)
    document.head.append(script)
  }
  return document.getElementById('root')!
}

/** Runs the app on the served page, as src/main.tsx does, until the test ends. */
async function run(container: HTMLElement) {
  const root = await act(() => start(container))
  onTestFinished(() => {
    act(() => root.unmount())
    document.head.innerHTML = ''
    document.body.innerHTML = ''
  })
}

describe('a prerendered public page', () => {
  // The server renderer ran in this realm too, which React notices; in
  // the product the build renders in Node and the browser hydrates.
  const sameRealm = 'Detected multiple renderers concurrently rendering the same context provider. This is currently unsupported.'
  let errors: unknown[][]
  beforeEach(() => {
    errors = []
    const error = console.error
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      if (args[0] === sameRealm) return
      errors.push(args)
      error(...args)
    })
  })

  it('has its words and plans in the HTML, and hydrates without a mismatch or a redraw', async () => {
    const html = await renderPage('/dental/pricing', responses)
    for (const words of ['Pricing', 'Can I get a refund?', '<p>Yes, within 7 days.</p>', '$29', 'mailto:support@whitecoat.app', 'Start free trial']) {
      expect(html).toContain(words)
    }

    mockApi({ 'GET /api/auth/me': () => json(200, {}), 'GET /api/payments/mode': () => json(200, { mode: 'stripe' }) })
    const warnings = vi.spyOn(console, 'warn')
    const container = serve('/dental/pricing', html)
    const heading = container.querySelector('h1')
    await run(container)
    // The header's buttons, held unseen in the HTML, show once the visitor is known.
    await waitFor(() => expect(container.querySelector('header .invisible')).toBeNull())
    expect(container.querySelector('h1')).toBe(heading)
    // Hydrated: the links move within the app.
    await userEvent.click(screen.getByRole('link', { name: 'Start free trial' }))
    expect(await screen.findByRole('heading', { name: 'Create your free account' })).toBeInTheDocument()
    expect(errors).toEqual([])
    expect(warnings).not.toHaveBeenCalled()
  })

  it('is the shell for a signed-in page, which the app draws', async () => {
    mockApi({ 'GET /api/auth/me': () => json(200, {}) })
    const container = serve('/login', '')
    await run(container)
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument()
  })
})
