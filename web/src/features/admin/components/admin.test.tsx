import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { failures } from '@/api/failures'
import { json, mockApi, problem, professionsBody, user } from '@/test/api-mock'
import { renderApp } from '@/test/render'

const admin = user({ role: 'admin', name: 'Ada Admin' })

function summary(i: number) {
  return {
    id: `u${i}`,
    name: `User ${i}`,
    email: `user${i}@example.com`,
    emailVerified: i % 2 === 0,
    trialExpiresAt: '2025-09-08T00:00:00Z',
    hasPaid: i === 2,
    subscriptionEndsAt: i === 2 ? '2026-09-10T12:00:00Z' : null,
    usageCount: i,
    role: 'user',
    createdAt: '2025-09-01T00:00:00Z',
  }
}

const question = {
  id: 'q1',
  scenario: '',
  text: 'Why dentistry?',
  subtag: 'Behavioral',
  tip: 'Tell a true story.',
  big3: false,
  big3Order: 0,
  mainTags: ['dental'],
  version: 3,
}

function adminApi(extra: Parameters<typeof mockApi>[0] = {}) {
  const userQueries: URLSearchParams[] = []
  const api = mockApi({
    'GET /api/auth/me': () => json(200, { user: admin }),
    'GET /api/professions': () => json(200, professionsBody),
    'GET /api/admin/users': (req) => {
      const params = new URL(req.url).searchParams
      userQueries.push(params)
      const size = Number(params.get('pageSize'))
      return json(200, { users: Array.from({ length: 3 }, (_, i) => summary(i)), total: 120, page: Number(params.get('page')), pageSize: size })
    },
    'GET /api/admin/questions': () => json(200, { questions: [question], total: 1, page: 1, pageSize: 25 }),
    'GET /api/admin/questions/q1': () => json(200, question),
    ...extra,
  })
  return { ...api, userQueries }
}

describe('users table', () => {
  it('sorts by a clicked header, with aria-sort, and pages on the server', async () => {
    const { userQueries } = adminApi()
    renderApp('/dental/admin')
    const table = await screen.findByRole('table', { name: /Users/ })
    expect(await within(table).findByText('user1@example.com')).toBeInTheDocument()
    expect(screen.getByText(/120 users · Page 1 of 5/)).toBeInTheDocument()

    const nameHead = within(table).getByRole('columnheader', { name: /Name/ })
    expect(nameHead).toHaveAttribute('aria-sort', 'none')
    await userEvent.click(within(nameHead).getByRole('button'))
    expect(nameHead).toHaveAttribute('aria-sort', 'ascending')
    await waitFor(() => expect(userQueries.at(-1)?.get('sort')).toBe('name'))
    expect(userQueries.at(-1)?.get('order')).toBe('asc')
    await userEvent.click(within(nameHead).getByRole('button'))
    expect(nameHead).toHaveAttribute('aria-sort', 'descending')

    await userEvent.click(screen.getByRole('button', { name: 'Next' }))
    await waitFor(() => expect(userQueries.at(-1)?.get('page')).toBe('2'))
    await userEvent.selectOptions(screen.getByLabelText('Rows per page'), '100')
    await waitFor(() => expect(userQueries.at(-1)?.get('pageSize')).toBe('100'))
    expect(userQueries.at(-1)?.get('page')).toBe('1')
  })

  it("shows whether and until when a user has Premium, and a paying user's payments with refunds and disputes", async () => {
    adminApi({
      'GET /api/admin/users/u2/payments': () =>
        json(200, {
          payments: [
            {
              id: 'cs_1',
              userId: 'u2',
              paymentIntent: 'pi_1',
              amountCents: 2900,
              currency: 'usd',
              status: 'refunded',
              createdAt: '2025-09-10T12:00:00Z',
              passStartsAt: '2025-09-10T12:00:00Z',
              passEndsAt: '2026-09-10T12:00:00Z',
              refundedAt: '2025-09-12T12:00:00Z',
              disputedAt: '2025-09-11T12:00:00Z',
            },
          ],
        }),
    })
    renderApp('/dental/admin')
    const table = await screen.findByRole('table', { name: /Users/ })
    // Paid and until when, in one column so that the table fits 1280 px.
    expect(within(table).getByRole('columnheader', { name: 'Premium' })).toBeInTheDocument()
    const row = (await within(table).findByText('user2@example.com')).closest('tr')!
    expect(within(row).getByText(/^Until .*2026$/)).toBeInTheDocument()
    // User 1 is unverified and has not paid: No and No.
    const unpaid = (await within(table).findByText('user1@example.com')).closest('tr')!
    expect(within(unpaid).getAllByText('No')).toHaveLength(2)
    await userEvent.click(within(row).getByRole('button', { name: 'Payments of User 2' }))
    const dialog = await screen.findByRole('dialog', { name: 'Payments of User 2' })
    expect(await within(dialog).findByText('$29.00')).toBeInTheDocument()
    expect(within(dialog).getByText('refunded')).toBeInTheDocument()
    expect(within(dialog).getAllByRole('cell').some((c) => /2025/.test(c.textContent ?? '') && c.querySelector('span'))).toBe(true)
  })

  it("downloads a user's data and deletes the account after a confirmation", async () => {
    const deleted: string[] = []
    adminApi({
      'DELETE /api/admin/users/u2': () => {
        deleted.push('u2')
        return json(200, { message: 'The account and everything in it have been deleted.' })
      },
    })
    renderApp('/dental/admin')
    const table = await screen.findByRole('table', { name: /Users/ })
    const row = (await within(table).findByText('user2@example.com')).closest('tr')!
    expect(within(row).getByRole('link', { name: 'Download User 2’s data (JSON)' })).toHaveAttribute('href', '/api/admin/users/u2/export')
    expect(within(row).getByRole('link', { name: 'Download User 2’s sessions (CSV)' })).toHaveAttribute('href', '/api/admin/users/u2/export.csv')
    await userEvent.click(within(row).getByRole('button', { name: 'Delete User 2’s account' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete User 2’s account?' })
    expect(deleted).toEqual([])
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete account' }))
    expect(await screen.findByText('User 2’s account has been deleted.')).toBeInTheDocument()
    expect(deleted).toEqual(['u2'])
  })

  it('searches once typing pauses, from page 1', async () => {
    const { userQueries } = adminApi()
    renderApp('/dental/admin')
    await screen.findByText('user1@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Next' }))
    await waitFor(() => expect(userQueries.at(-1)?.get('page')).toBe('2'))
    const before = userQueries.length
    await userEvent.type(screen.getByLabelText('Search users'), 'ada')
    await waitFor(() => expect(userQueries.at(-1)?.get('q')).toBe('ada'))
    // One request for the whole word, not one per keystroke.
    expect(userQueries.length).toBe(before + 1)
    expect(userQueries.at(-1)?.get('page')).toBe('1')
  })

  it('links to the question manager', async () => {
    adminApi()
    renderApp('/medical/admin')
    expect(await screen.findByRole('link', { name: 'Manage questions' })).toHaveAttribute('href', '/medical/admin/questions')
  })
})

describe('question manager', () => {
  it('checks an incomplete question before sending it', async () => {
    const { calls } = adminApi()
    renderApp('/dental/admin/questions')
    await userEvent.click(await screen.findByRole('button', { name: 'New question' }))
    const dialog = await screen.findByRole('dialog', { name: 'New question' })
    await userEvent.type(within(dialog).getByLabelText('Question'), 'Why pharmacy?')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add question' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Please complete all fields.')
    expect(calls.some((c) => c.key === 'POST /api/admin/questions')).toBe(false)
  })

  it('adds a station: scenario, prompt and follow-ups one per line, no Big 3', async () => {
    const { calls } = adminApi({ 'POST /api/admin/questions': () => problem(409, 'text: duplicates another question.') })
    renderApp('/dental/admin/questions')
    await userEvent.click(await screen.findByRole('button', { name: 'New question' }))
    const dialog = await screen.findByRole('dialog', { name: 'New question' })
    expect(within(dialog).queryByLabelText('Follow-up prompts (one per line)')).not.toBeInTheDocument()
    await userEvent.type(within(dialog).getByLabelText('Scenario (optional)'), 'A patient asks for veneers on healthy teeth.')
    expect(within(dialog).queryByRole('checkbox', { name: 'Big 3 question' })).not.toBeInTheDocument()
    await userEvent.type(within(dialog).getByLabelText('Station prompt'), 'What would you do?')
    await userEvent.type(within(dialog).getByLabelText('Follow-up prompts (one per line)'), 'What if she insists?{Enter}{Enter}Who pays?{Enter}')
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Dental' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add question' }))
    await within(dialog).findByRole('alert')
    expect(calls.find((c) => c.key === 'POST /api/admin/questions')?.body).toEqual({
      scenario: 'A patient asks for veneers on healthy teeth.',
      text: 'What would you do?',
      followUps: ['What if she insists?', 'Who pays?'],
      subtag: '',
      tip: '',
      big3: false,
      big3Order: 0,
      mainTags: ['dental'],
      points: [],
      traps: [],
    })
  })

  it('lists a station by its scenario and shows its follow-ups', async () => {
    const stationRow = { ...question, id: 'q2', scenario: 'A patient asks for veneers on healthy teeth.', text: 'What would you do?', followUps: ['Who pays?'] }
    adminApi({
      'GET /api/admin/questions': () => json(200, { questions: [stationRow], total: 1, page: 1, pageSize: 25 }),
      'GET /api/admin/questions/q2': () => json(200, stationRow),
    })
    renderApp('/dental/admin/questions')
    const row = (await screen.findByText('A patient asks for veneers on healthy teeth.')).closest('tr')!
    expect(within(row).getByText('Station')).toBeInTheDocument()
    await userEvent.click(within(row).getByRole('button', { name: /View/ }))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByText('Station prompt')).toBeInTheDocument()
    expect(within(dialog).getByText('Who pays?')).toBeInTheDocument()
  })

  it('says "Failed to add question." when the server refuses, with its reason', async () => {
    const { calls } = adminApi({ 'POST /api/admin/questions': () => problem(409, 'text: duplicates another question.') })
    renderApp('/dental/admin/questions')
    await userEvent.click(await screen.findByRole('button', { name: 'New question' }))
    const dialog = await screen.findByRole('dialog', { name: 'New question' })
    await userEvent.type(within(dialog).getByLabelText('Question'), 'Why pharmacy?')
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'PHARMACY' }))
    await userEvent.selectOptions(within(dialog).getByLabelText('Subtag (optional)'), 'Ethical')
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Big 3 question' }))
    await userEvent.selectOptions(within(dialog).getByLabelText('Big 3 order'), '2')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add question' }))
    const alert = await within(dialog).findByRole('alert')
    expect(alert).toHaveTextContent('Failed to add question.')
    expect(alert).toHaveTextContent('text: duplicates another question.')
    expect(calls.find((c) => c.key === 'POST /api/admin/questions')?.body).toEqual({
      scenario: '',
      text: 'Why pharmacy?',
      followUps: [],
      subtag: 'Ethical',
      tip: '',
      big3: true,
      big3Order: 2,
      mainTags: ['pharmacy'],
      points: [],
      traps: [],
    })
  })

  it('on a save refused because another admin saved first, shows their version and keeps what was typed to save again', async () => {
    const theirs = { ...question, text: 'Why dentistry, and why now?', version: 4, updatedBy: 'ben@example.com', updatedAt: '2026-09-01T12:00:00Z' }
    let puts = 0
    const { calls } = adminApi({
      'PUT /api/admin/questions/q1': () => {
        puts++
        if (puts === 1) {
          const { type, message } = failures.questionEditedMeanwhile
          return json(409, { type, title: 'Conflict', status: 409, detail: message, current: theirs })
        }
        return json(200, { ...theirs, text: 'Why dentistry, in your words?', version: 5, updatedBy: 'ada@example.com' })
      },
    })
    renderApp('/dental/admin/questions')
    await userEvent.click(await screen.findByRole('button', { name: /View/ }))
    const dialog = await screen.findByRole('dialog', { name: 'Question' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Edit' }))
    const text = within(dialog).getByLabelText('Question')
    await userEvent.clear(text)
    await userEvent.type(text, 'Why dentistry, in your words?')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(failures.questionEditedMeanwhile.message)
    const newer = within(dialog).getByRole('region', { name: 'Their version' })
    expect(within(newer).getByText('Why dentistry, and why now?')).toBeInTheDocument()
    expect(within(newer).getByText(/by ben@example\.com/)).toBeInTheDocument()
    // What the admin typed is still there, to save again on their version.
    expect(within(dialog).getByLabelText('Question')).toHaveValue('Why dentistry, in your words?')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Question updated.')).toBeInTheDocument()
    const sent = calls.filter((c) => c.key === 'PUT /api/admin/questions/q1').map((c) => c.body as { text: string; version: number })
    expect(sent.map((b) => [b.text, b.version])).toEqual([
      ['Why dentistry, in your words?', 3],
      ['Why dentistry, in your words?', 4],
    ])
  })

  it('views, then edits with "All fields required" for an empty text, then cancels', async () => {
    const { calls } = adminApi()
    renderApp('/dental/admin/questions')
    await userEvent.click(await screen.findByRole('button', { name: /View/ }))
    const dialog = await screen.findByRole('dialog', { name: 'Question' })
    expect(within(dialog).getByText('Tell a true story.')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Edit' }))
    const text = within(dialog).getByLabelText('Question')
    expect(text).toHaveValue('Why dentistry?')
    await userEvent.clear(text)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('All fields required')
    expect(calls.some((c) => c.key.startsWith('PUT'))).toBe(false)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(within(dialog).getByText('Why dentistry?')).toBeInTheDocument()
  })
})
