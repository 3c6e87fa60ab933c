import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { dashboardBody, json, mockApi } from '@/test/api-mock'
import { fakeMedia, setUpFakeMedia } from '@/test/fake-media'
import { base, HEAVY_USAGE, session } from '@/test/practice'
import { renderApp } from '@/test/render'

setUpFakeMedia()

describe('setup', () => {
  it('sends a custom list as big3 false with its length as the count', async () => {
    const { calls } = mockApi({
      ...base,
      'GET /api/questions': () =>
        json(200, {
          questions: [
            { id: 'q1', text: 'Describe a team you led.', subtag: 'Teamwork', tip: '', big3: false, big3Order: 0, mainTags: ['dental'] },
            { id: 'q2', text: 'Tell me about yourself.', subtag: 'Big 3', tip: '', big3: true, big3Order: 1, mainTags: ['medical'] },
            { id: 'q3', text: 'Tell me about yourself.', subtag: 'Big 3', tip: '', big3: true, big3Order: 1, mainTags: ['dental'] },
          ],
        }),
      'POST /api/practice/sessions': () => json(201, { session: session({ id: 's9' }) }),
      'GET /api/practice/sessions/s9': () => json(200, { session: session({ id: 's9' }) }),
    })
    fakeMedia()
    const { router } = renderApp('/medical/setup')
    expect(await screen.findByText('Medical interview')).toBeInTheDocument()
    await userEvent.click(await screen.findByRole('radio', { name: /Custom/ }))
    await userEvent.click(screen.getByRole('radio', { name: /Audio/ }))
    expect(screen.getByRole('button', { name: 'Start Interview' })).toBeDisabled()
    await userEvent.type(screen.getByLabelText('Write a question'), '  Why medicine?  {Enter}')
    await userEvent.type(screen.getByLabelText('Write a question'), 'why   MEDICINE?{Enter}')
    // The bank opens on the profession practised, each row labelled with its profession and subtag.
    const bank = await screen.findByRole('list', { name: 'Question bank' })
    expect(await within(bank).findByText('Medical · Big 3')).toBeInTheDocument()
    expect(within(bank).getAllByRole('listitem')).toHaveLength(1)
    await userEvent.selectOptions(screen.getByLabelText('Profession'), 'All professions')
    expect(within(bank).getAllByRole('listitem')).toHaveLength(3)
    expect(within(bank).getByText('Dental · Teamwork')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: /^Add\W+Describe a team you led/ }))
    expect(screen.getByRole('button', { name: /Added/ })).toBeDisabled()
    await userEvent.click(screen.getByRole('button', { name: 'Start Interview' }))
    await waitFor(() => expect(router.state.location.search).toBe('?id=s9'))
    expect(calls.find((c) => c.key === 'POST /api/practice/sessions')?.body).toEqual({
      profession: 'medical',
      mode: 'audio',
      format: 'traditional',
      extension: '1',
      timings: { prepSeconds: 0, answerSeconds: 180 },
      interviewType: 'custom',
      big3: false,
      questionCount: 2,
      questions: [{ text: 'Why medicine?' }, { text: 'Describe a team you led.' }],
    })
  })

  it('sends a random config and shows a refusal', async () => {
    const { calls } = mockApi({
      ...base,
      'POST /api/practice/sessions': () => json(403, { title: 'Forbidden', status: 403, detail: 'Upgrade to Practice to continue.' }),
    })
    renderApp('/dental/setup')
    await userEvent.clear(await screen.findByLabelText('Number of questions'))
    await userEvent.type(screen.getByLabelText('Number of questions'), '3')
    await userEvent.click(screen.getByRole('button', { name: 'Start Interview' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Upgrade to Practice to continue.')
    expect(calls.find((c) => c.key === 'POST /api/practice/sessions')?.body).toEqual({
      profession: 'dental',
      mode: 'video',
      format: 'traditional',
      extension: '1',
      timings: { prepSeconds: 0, answerSeconds: 180 },
      interviewType: 'random',
      big3: true,
      questionCount: 3,
    })
  })

  it("opens on a guide's focus: that kind of question first, without the Big 3", async () => {
    const { calls } = mockApi({
      ...base,
      'POST /api/practice/sessions': () => json(403, { title: 'Forbidden', status: 403, detail: 'Upgrade to Practice to continue.' }),
    })
    renderApp('/pa/setup?focus=Communication')
    expect(await screen.findByLabelText('Question focus')).toHaveValue('Communication')
    expect(screen.getByRole('checkbox', { name: /Start with the Big 3/ })).not.toBeChecked()
    await userEvent.click(screen.getByRole('button', { name: 'Start Interview' }))
    await screen.findByRole('alert')
    expect(calls.find((c) => c.key === 'POST /api/practice/sessions')?.body).toEqual({
      profession: 'pa',
      mode: 'video',
      format: 'traditional',
      extension: '1',
      timings: { prepSeconds: 0, answerSeconds: 180 },
      interviewType: 'random',
      big3: false,
      focus: 'Communication',
      questionCount: 5,
    })
  })

  it('sends a format with its timings as edited and the extra time chosen', async () => {
    const { calls } = mockApi({
      ...base,
      'POST /api/practice/sessions': () => json(403, { title: 'Forbidden', status: 403, detail: 'Upgrade to Practice to continue.' }),
    })
    renderApp('/medical/setup')
    await userEvent.click(await screen.findByRole('radio', { name: /MMI stations/ }))
    // Stations come from the bank's scenarios: no custom list and no Big 3.
    expect(screen.queryByRole('radio', { name: /Custom/ })).not.toBeInTheDocument()
    expect(screen.queryByRole('checkbox', { name: /Start with the Big 3/ })).not.toBeInTheDocument()
    expect(screen.getByText(/MMI stations: 2 min to read, 7 min per answer/)).toBeInTheDocument()
    expect(screen.getByLabelText('Number of stations')).toHaveValue(6)
    expect(screen.getByLabelText('Reading time (seconds)')).toHaveValue(120)
    await userEvent.clear(screen.getByLabelText('Answer time (seconds)'))
    await userEvent.type(screen.getByLabelText('Answer time (seconds)'), '360')
    await userEvent.selectOptions(screen.getByLabelText('Extra time'), '2 × every limit')
    await userEvent.click(screen.getByRole('button', { name: 'Start Interview' }))
    await screen.findByRole('alert')
    expect(calls.find((c) => c.key === 'POST /api/practice/sessions')?.body).toEqual({
      profession: 'medical',
      mode: 'video',
      format: 'mmi',
      extension: '2',
      timings: { prepSeconds: 120, answerSeconds: 360 },
      interviewType: 'random',
      big3: false,
      questionCount: 6,
    })

    // Casper-style adds the typing time; a timing out of bounds is refused by the field itself.
    await userEvent.click(screen.getByRole('radio', { name: /Casper-style/ }))
    expect(screen.getByLabelText('Typing time for both questions (seconds)')).toHaveValue(210)
    const perQuestion = screen.getByLabelText('Time per spoken question (seconds)')
    await userEvent.clear(perQuestion)
    await userEvent.type(perQuestion, '5')
    await userEvent.click(screen.getByRole('button', { name: 'Start Interview' }))
    expect(perQuestion).toBeInvalid()
    expect(calls.filter((c) => c.key === 'POST /api/practice/sessions')).toHaveLength(1)
    await userEvent.clear(perQuestion)
    await userEvent.type(perQuestion, '45')
    await userEvent.click(screen.getByRole('button', { name: 'Start Interview' }))
    await waitFor(() => expect(calls.filter((c) => c.key === 'POST /api/practice/sessions')).toHaveLength(2))
    expect(calls.filter((c) => c.key === 'POST /api/practice/sessions')[1]?.body).toMatchObject({
      format: 'casper',
      timings: { prepSeconds: 30, answerSeconds: 45, typedSeconds: 210 },
      questionCount: 2,
    })
  })

  it('refuses a locked student up front: the reason and the upgrade, no form to fill', async () => {
    const body = dashboardBody()
    const expired = 'Your free trial has ended. Upgrade to Premium to keep practicing.'
    const { calls } = mockApi({
      ...base,
      'GET /api/dashboard': () =>
        json(200, { ...body, access: { ...body.access, status: 'free_trial_expired', banner: expired, practiceEnabled: false, historyLocked: true } }),
    })
    renderApp('/dental/setup')
    expect(await screen.findByText(expired)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Upgrade to Practice' })).toBeEnabled()
    expect(screen.queryByRole('button', { name: 'Start Interview' })).not.toBeInTheDocument()
    expect(screen.queryByLabelText('Number of questions')).not.toBeInTheDocument()
    expect(calls.some((c) => c.key === 'POST /api/practice/sessions')).toBe(false)
  })

  it('refuses a paused student up front with the pause and when it ends', async () => {
    mockApi({
      ...base,
      'GET /api/dashboard': () => json(200, dashboardBody({ usagePause: { message: HEAVY_USAGE, endsAt: '2025-09-09T15:30:00Z' } })),
    })
    renderApp('/dental/setup')
    expect(await screen.findByText(/Practice opens again/)).toBeInTheDocument()
    expect(screen.getByText(HEAVY_USAGE)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Start Interview' })).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toBeInTheDocument()
  })

  it('ignores a focus it does not know', async () => {
    mockApi(base)
    renderApp('/pa/setup?focus=Gossip')
    expect(await screen.findByLabelText('Question focus')).toHaveValue('')
    expect(screen.getByRole('checkbox', { name: /Start with the Big 3/ })).toBeChecked()
  })
})
