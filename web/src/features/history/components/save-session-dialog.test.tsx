import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { json, mockApi } from '@/test/api-mock'
import { base, feedback, item, session } from '@/test/practice'
import { renderApp } from '@/test/render'
import { defaultSessionTitle } from '../utils/session-title'

describe('summary', () => {
  it('polls while answers are processing and saves with the default title', async () => {
    let polls = 0
    const processing = session({ status: 'completed', processing: true, items: [item(1, { status: 'transcribing' })] })
    const practised = '2025-09-07T14:05:00Z'
    const finished = session({
      status: 'completed',
      createdAt: practised,
      averageScore: 65,
      items: [item(1, { status: 'done', transcript: 'Hi.', feedback: feedback(65), meaningful: true })],
    })
    const { calls } = mockApi({
      ...base,
      'GET /api/practice/sessions/s1': () => json(200, { session: ++polls < 2 ? processing : finished }),
      'POST /api/practice/sessions/s1/save': () => json(201, { saved: { id: 'v1' } }),
    })
    renderApp('/dental/summary?id=s1')
    expect(await screen.findByText('Transcribing…')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Share for comments' })).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Save Session' })).toBeDisabled()
    expect(await screen.findByText('65%')).toHaveClass('bg-destructive')
    await userEvent.click(screen.getByRole('button', { name: 'Save Session' }))
    const title = within(screen.getByRole('dialog')).getByLabelText('Title')
    // Named after when the session was practised, as every list shows it.
    expect((title as HTMLInputElement).value).toBe(defaultSessionTitle(new Date(practised)))
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Session saved to your dashboard.')).toBeInTheDocument()
    expect(calls.find((c) => c.key === 'POST /api/practice/sessions/s1/save')?.body).toEqual({ title: expect.stringMatching(/^Session /) })
    // Saved, the session can be shared from where it was saved.
    await userEvent.click(screen.getByRole('button', { name: 'Share for comments' }))
    expect(within(screen.getByRole('dialog')).getByLabelText('Reviewer’s name')).toBeInTheDocument()
  })

  it('says so when saving fails', async () => {
    mockApi({
      ...base,
      'GET /api/practice/sessions/s1': () => json(200, { session: session({ status: 'completed', items: [item(1, { status: 'skipped' })] }) }),
      'POST /api/practice/sessions/s1/save': () => json(500, { title: 'Internal Server Error', status: 500 }),
    })
    renderApp('/dental/summary?id=s1')
    await userEvent.click(await screen.findByRole('button', { name: 'Save Session' }))
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Failed to save session. Please try again.')).toBeInTheDocument()
  })
})
