import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { failures } from '@/api/failures'
import { json, mockApi, professionsBody } from '@/test/api-mock'
import { renderApp } from '@/test/render'

const review = {
  reviewerName: 'Dr. Rivera',
  studentFirstName: 'Sam',
  expiresAt: null,
  session: {
    title: 'Clinic story',
    profession: 'dental',
    format: 'traditional',
    createdAt: '2026-09-01T12:00:00Z',
    overallAvg: 82,
    scored: true,
    items: [
      {
        kind: 'spoken',
        scenario: '',
        question: 'Why dentistry?',
        status: 'done',
        skipped: false,
        transcript: 'Because of a clinic.',
        feedback: { overallScore: 82, sectionScores: { content: 80, clarityStructure: 81, overallImpression: 85 }, summary: 'Clear.', suggestions: ['Add a detail.'], rubricVersion: 'v3' },
      },
    ],
  },
  comments: [],
  commentsLeft: 50,
}

function reviewApi(open: () => Response) {
  return mockApi({
    'GET /api/auth/me': () => json(200, {}),
    'GET /api/professions': () => json(200, professionsBody),
    'GET /api/review': open,
    'POST /api/review/comments': () => json(201, { comment: { id: 'c1', itemIndex: 0, authorName: 'Dr. Rivera', body: 'Good.', createdAt: '2026-09-01T12:05:00Z' } }),
  })
}

describe('the review page', () => {
  it.each([
    [failures.shareLinkExpired, 'This link has expired'],
    [failures.shareLinkRevoked, 'This link was turned off'],
    [failures.shareLinkNotFound, 'This link does not work'],
  ])('says why a closed link does not open ($type)', async (failure, heading) => {
    reviewApi(() => json(404, { type: failure.type, title: 'Not Found', status: 404, detail: failure.message }))
    renderApp('/review?token=abc')
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument()
    expect(screen.getByText(failure.message)).toBeInTheDocument()
  })

  it('says a link without its token does not work, without asking the server', async () => {
    const api = reviewApi(() => json(200, review))
    renderApp('/review')
    expect(await screen.findByRole('heading', { level: 1, name: 'This link does not work' })).toBeInTheDocument()
    expect(api.calls.some((c) => c.key === 'GET /api/review')).toBe(false)
  })

  it('shows the answer and sends a comment on it with the token', async () => {
    const api = reviewApi(() => json(200, review))
    renderApp('/review?token=abc')
    expect(await screen.findByRole('heading', { level: 1, name: 'Sam’s practice session' })).toBeInTheDocument()
    expect(screen.getByText('Because of a clinic.')).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('Your comment on question 1'), 'Good.')
    await userEvent.click(screen.getAllByRole('button', { name: 'Add comment' })[0]!)
    expect(await screen.findByText('Comment added. The student will be emailed.')).toBeInTheDocument()
    const sent = api.calls.find((c) => c.key === 'POST /api/review/comments')
    expect(sent?.body).toEqual({ itemIndex: 0, body: 'Good.' })
    expect(api.fn.mock.calls.some(([input]) => String(input instanceof Request ? input.url : input).includes('/api/review/comments?token=abc'))).toBe(true)
  })

  it('shows each answer as the student sees it: misheard words marked, a failure and an answer with nothing to score (issue 38)', async () => {
    const answer = { kind: 'spoken', scenario: '', followUps: [], error: '', uncertainWords: 0, meaningful: true }
    reviewApi(() =>
      json(200, {
        ...review,
        session: {
          ...review.session,
          items: [
            {
              ...review.session.items[0],
              ...answer,
              transcript: 'Because of a clinic.',
              uncertainWords: 1,
              transcriptParts: [{ text: 'Because of a ' }, { text: 'clinic', uncertain: true }, { text: '.' }],
            },
            { ...answer, question: 'Tell me about a team.', status: 'failed', transcript: null, meaningful: null },
            { ...answer, question: 'Why our school?', status: 'done', transcript: 'Thank you.', meaningful: false },
          ],
        },
      }),
    )
    renderApp('/review?token=abc')
    const [marked, failed, silent] = await screen.findAllByRole('article')
    expect(marked).toHaveTextContent('clinic (may be misheard)')
    expect(marked).toHaveTextContent('A dotted underline marks a word we may have misheard.')
    expect(marked).not.toHaveTextContent('check them, then score again')
    expect(failed).toHaveTextContent(failures.feedbackFailed.message)
    expect(silent).toHaveTextContent('No meaningful response detected. Skipping feedback.')
  })
})
