import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { json, mockApi, problem, professionsBody } from '@/test/api-mock'
import { renderApp } from '@/test/render'

const signedOut = {
  'GET /api/auth/me': () => json(200, {}),
  'GET /api/professions': () => json(200, professionsBody),
}

function page(key: string, profession: string, extra: object = {}) {
  return {
    key,
    profession,
    path: `/${profession}/${key}`,
    title: `${key} title`,
    description: `${key} description`,
    html: `<h2 id="first">First section</h2><p>Read <a href="/${profession}/privacy">the privacy policy</a>.</p>`,
    headings: [{ id: 'first', text: 'First section', level: 2 }],
    ...extra,
  }
}

describe('public pages', () => {
  it('lists the guides, the PDFs with their size, and office hours', async () => {
    mockApi({
      ...signedOut,
      'GET /api/site/pages/ot/resources': () =>
        json(
          200,
          page('resources', 'ot', {
            title: 'Resources',
            html: '<h2 id="office-hours">Office hours</h2><p>Write to <a href="mailto:help@op.test">help@op.test</a>.</p>',
            guides: [{ key: 'ethics', title: 'Ethical Frameworks Cheat Sheet', summary: 'Principles.', path: '/ot/resources/ethics' }],
            downloads: [
              { key: 'interview-tips', title: 'Interview Tips', summary: 'Print it.', path: '/public/resources/ot/interview-tips.pdf', fileName: 'whitecoat-ot-interview-tips.pdf', pages: 3, bytes: 20480, size: 'PDF, 3 pages, 20 KB' },
            ],
          }),
        ),
    })
    renderApp('/ot/resources')
    expect(await screen.findByRole('heading', { level: 1, name: 'Resources' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Ethical Frameworks Cheat Sheet' })).toHaveAttribute('href', '/ot/resources/ethics')
    const pdf = screen.getByRole('link', { name: 'Download Interview Tips (PDF, 3 pages, 20 KB)' })
    expect(pdf).toHaveAttribute('href', '/public/resources/ot/interview-tips.pdf')
    expect(pdf).toHaveAttribute('download', 'whitecoat-ot-interview-tips.pdf')
    const office = screen.getByRole('complementary', { name: 'Office hours' })
    expect(within(office).getByRole('link', { name: 'help@op.test' })).toHaveAttribute('href', 'mailto:help@op.test')
  })

  it('ends a guide with its practice button, and its own links stay in the app', async () => {
    mockApi({
      ...signedOut,
      'GET /api/site/pages/dental/ethics': () =>
        json(200, page('ethics', 'dental', { practice: { label: 'Practice an ethics scenario', path: '/dental/setup?focus=Ethical', focus: 'Ethical' } })),
      'GET /api/site/pages/dental/privacy': () => json(200, page('privacy', 'dental', { title: 'Privacy Policy' })),
    })
    const { router } = renderApp('/dental/resources/ethics')
    expect(await screen.findByText('Guide for dental applicants')).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 2, name: 'First section' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Practice an ethics scenario' })).toHaveAttribute('href', '/dental/setup?focus=Ethical')
    expect(screen.getByRole('link', { name: 'Back to Resources' })).toHaveAttribute('href', '/dental/resources')
    await userEvent.click(screen.getByRole('link', { name: 'the privacy policy' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dental/privacy'))
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeInTheDocument()
  })

  it('shows a table of contents on long pages, an illustration on about, and a way back from a failure', async () => {
    let fail = true
    const headings = ['One', 'Two', 'Three', 'Four'].map((text) => ({ id: text.toLowerCase(), text, level: 2 }))
    mockApi({
      ...signedOut,
      'GET /api/site/pages/pa/terms': () => json(200, page('terms', 'pa', { title: 'Terms of Service', headings })),
      'GET /api/site/pages/pa/about': () => (fail ? problem(503, 'Down.') : json(200, page('about', 'pa', { title: 'About Whitecoat' }))),
    })
    const { unmount } = renderApp('/pa/terms')
    const contents = await screen.findByRole('navigation', { name: 'On this page' })
    expect(within(contents).getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual(['#one', '#two', '#three', '#four'])
    unmount()
    renderApp('/pa/about')
    expect(await screen.findByRole('alert')).toHaveTextContent('This page could not be loaded.')
    fail = false
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'About Whitecoat' })).toBeInTheDocument()
    expect(screen.getByRole('img', { name: /white coat/ })).toBeInTheDocument()
  })
})
