import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { sessionTime } from '@/lib/session-time'
import { json, mockApi } from '@/test/api-mock'
import { base } from '@/test/practice'
import { renderApp } from '@/test/render'

describe('summary', () => {
  it("words a saved session's failed and empty answers as the spec does", async () => {
    mockApi({
      ...base,
      'GET /api/practice/saved/v2': () =>
        json(200, {
          saved: {
            id: 'v2',
            title: 'Tuesday practice',
            profession: 'dental',
            createdAt: '2025-09-09T10:00:00Z',
            overallAvg: 0,
            scored: false,
            totalSessionTime: 120,
            counts: { totalQuestions: 2, answered: 2, skipped: 0 },
            items: [
              { question: 'Why?', tip: '', status: 'failed', meaningful: null, skipped: false, transcript: '', feedback: null },
              { question: 'How?', tip: '', status: 'done', meaningful: false, skipped: false, transcript: 'Thank you.', feedback: null },
            ],
          },
        }),
    })
    renderApp('/dental/summary?saved=v2')
    const [failed, empty] = (await screen.findAllByRole('article')) as [HTMLElement, HTMLElement]
    expect(within(failed).getByText('Failed')).toBeInTheDocument()
    expect(within(failed).getByText('Error')).toBeInTheDocument()
    expect(within(failed).getByText('Error generating feedback')).toBeInTheDocument()
    expect(within(empty).getByText('Thank you.')).toBeInTheDocument()
    expect(within(empty).getByText('No meaningful response detected. Skipping feedback.')).toBeInTheDocument()
    // Nothing was scored: said so, never as 0 %.
    expect(screen.getByText('No answers were scored in this session.')).toBeInTheDocument()
    expect(screen.getByText(/silent, could not be processed or was skipped\. It is not counted and does not use a free session\./)).toBeInTheDocument()
    expect(screen.queryByText('0%')).not.toBeInTheDocument()
  })

  it('reviews a saved session read-only, legacy feedback as text', async () => {
    mockApi({
      ...base,
      'GET /api/practice/saved/v1': () =>
        json(200, {
          saved: {
            id: 'v1',
            title: 'Monday practice',
            profession: 'dental',
            createdAt: '2025-09-08T10:00:00Z',
            overallAvg: 71.6,
            scored: true,
            totalSessionTime: 300,
            counts: { totalQuestions: 1, answered: 1, skipped: 0 },
            items: [{ question: 'Why?', tip: '', skipped: false, transcript: 'Because.', feedback: null, legacyFeedback: '<b>Strong</b> <img src=x onerror=alert(1)>answer' }],
          },
        }),
    })
    renderApp('/dental/summary?saved=v1')
    expect(await screen.findByRole('heading', { level: 1, name: 'Monday practice' })).toBeInTheDocument()
    // When it was practised, worded and written as the lists write it.
    expect(screen.getByText(`Practiced ${sessionTime('2025-09-08T10:00:00Z')}`)).toBeInTheDocument()
    expect(screen.getByText('72%')).toHaveClass('bg-secondary')
    expect(screen.getByText('Strong answer')).toBeInTheDocument()
    expect(document.querySelector('article img')).toBeNull()
    expect(screen.queryByRole('button', { name: 'Save Session' })).not.toBeInTheDocument()
  })
})
