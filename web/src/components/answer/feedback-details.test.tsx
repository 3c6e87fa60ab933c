import { QueryClientProvider } from '@tanstack/react-query'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { testQueryClient } from '@/test/render'
import type { Answer, AnswerMetrics } from './answer'
import { AnswerCard } from './answer-card'
import type { Feedback } from './feedback'

const OVERRIDE_QUOTE = 'the patient refused the transfusion but i would give him the blood anyway'

/** Rubric v3 feedback for a red-flag answer, trimmed from `whitecoat feedback --json`. */
function v3Feedback(overrides: Partial<Feedback> = {}): Feedback {
  return {
    overallScore: 35,
    sectionScores: { overallImpression: 45, clarityStructure: 72, content: 47 },
    summary: 'This answer to an ethical scenario raises a red flag: overriding the patient’s decision.',
    suggestions: ['Name the principles in tension.'],
    rubricVersion: 'v3',
    engine: 'rubric',
    evidence: [
      { section: 'content', criterion: 'Answers the question', met: true, level: 6, anchor: 'Answers the question asked, with most of what it calls for.' },
      {
        section: 'content',
        criterion: 'Judgment',
        met: false,
        quote: OVERRIDE_QUOTE,
        note: 'red flag',
        level: 1,
        anchor: 'Shows conduct an interviewer would treat as disqualifying, or no judgment at all.',
      },
      { section: 'clarityStructure', criterion: 'Structure for the question', met: false, level: 4, anchor: 'Some of the parts this question needs; key ones are missing.' },
      { section: 'clarityStructure', criterion: 'Economy', met: true, level: 6, anchor: 'Little padding; most sentences add something.' },
      { section: 'overallImpression', criterion: 'Delivery', met: true, level: 5, anchor: 'Clear delivery at a comfortable length and pace, with few fillers.' },
      { section: 'clarityStructure', criterion: 'the ethical issue', met: false, note: 'not found' },
      { section: 'overallImpression', criterion: 'length', met: false, note: '12 s (target 60-120 s)' },
    ],
    redFlags: [
      {
        key: 'override-consent',
        name: "overriding the patient's decision",
        quote: OVERRIDE_QUOTE,
        why: 'A capable adult may refuse care.',
        instead: 'Explore why they refuse, check capacity, and respect an informed refusal.',
      },
    ],
    competencies: ['critical-thinking', 'empathy-compassion'],
    fallback: false,
    ...overrides,
  }
}

/** Rubric v2 feedback: evidence without levels, no flags, no competencies. */
function v2Feedback(): Feedback {
  return {
    overallScore: 82,
    sectionScores: { overallImpression: 80, clarityStructure: 78, content: 85 },
    summary: 'A clear, specific answer.',
    suggestions: ['Add the result.'],
    rubricVersion: 'v2',
    engine: 'rubric',
    evidence: [{ section: 'content', criterion: 'specific examples', met: true, quote: 'at the free clinic' }],
    redFlags: [],
    competencies: [],
    fallback: false,
  }
}

function entry(feedback: Feedback): Answer {
  return {
    kind: 'spoken',
    scenario: '',
    question: 'An adult refuses a transfusion. What do you do?',
    followUps: [],
    status: 'done',
    transcript: 'the patient refused the transfusion',
    feedback,
    meaningful: true,
    error: '',
    uncertainWords: 0,
  }
}

/**
 * The correction form a screen puts in the card's slot where the student
 * may correct their own answer (the practice summary's scores it again).
 */
function correctionForm(initial: string) {
  return (
    <label>
      Corrected transcript
      {/* eslint-disable-next-line jsx-a11y/no-autofocus -- as the practice form: it opens on the student's own press */}
      <textarea defaultValue={initial} autoFocus />
    </label>
  )
}

function renderCard(feedback: Feedback, { tip, correctable, ...overrides }: Partial<Answer> & { tip?: string; correctable?: boolean } = {}) {
  render(
    <QueryClientProvider client={testQueryClient()}>
      <AnswerCard answer={{ ...entry(feedback), ...overrides }} id="i1" number={1} tip={tip} correctionForm={correctable ? correctionForm : undefined} />
    </QueryClientProvider>,
  )
  return screen.getByRole('article')
}

/** Opens what the card keeps behind its disclosure, as a student would. */
async function openDetails(card: HTMLElement) {
  await userEvent.click(within(card).getByRole('button', { name: 'Scores, feedback and evidence' }))
}

describe('AnswerCard opens with what matters', () => {
  it('shows the score, the change that would lift it most and the transcript; the rest opens on demand, by keyboard too', async () => {
    const metrics: AnswerMetrics = {
      durationSeconds: 65,
      wordsPerMinute: 131.6,
      wordCount: 142,
      fillerCount: 2,
      fillers: { um: 2 },
      fillersPer100Words: 1.4,
      fillersPerMinute: 1.8,
      fillersSource: 'engine',
      limitShare: 0.36,
      longestPauseSeconds: 1.25,
      pausesOver2s: 0,
      pausesMeasured: true,
    }
    const card = renderCard(v3Feedback({ redFlags: [], suggestions: ['Name the principles in tension.', 'Say what you would do next.'] }), {
      metrics,
      tip: 'Weigh both sides.',
    })
    expect(within(card).getByText('Score: 35')).toBeVisible()
    const lift = within(card).getByRole('group', { name: 'The change that would lift this score most' })
    expect(lift).toHaveTextContent('Name the principles in tension.')
    expect(within(card).getByRole('group', { name: 'Transcript' })).toHaveTextContent('the patient refused the transfusion')
    // The lift comes before the transcript.
    expect(lift.compareDocumentPosition(within(card).getByRole('group', { name: 'Transcript' })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()

    const toggle = within(card).getByRole('button', { name: 'Scores, feedback and evidence' })
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    const panel = document.getElementById(toggle.getAttribute('aria-controls')!)!
    expect(panel).not.toBeVisible()
    expect(within(card).queryByRole('group', { name: 'How this was scored' })).not.toBeInTheDocument()
    for (const hidden of ['Content: 47', 'Say what you would do next.', 'Tip: Weigh both sides.', 'Words per minute', /raises a red flag/]) {
      expect(within(card).getByText(hidden)).not.toBeVisible()
    }

    toggle.focus()
    await userEvent.keyboard('{Enter}')
    expect(toggle).toHaveAttribute('aria-expanded', 'true')
    expect(panel).toBeVisible()
    expect(within(card).getByRole('group', { name: 'How this was scored' })).toBeVisible()
    expect(within(card).getByText('Say what you would do next.')).toBeVisible()
    expect(within(card).getByText('Words per minute')).toBeVisible()
    await userEvent.keyboard(' ')
    expect(toggle).toHaveAttribute('aria-expanded', 'false')
    expect(panel).not.toBeVisible()
  })

  it('prints every panel open: a closed one yields to the print rule', () => {
    const card = renderCard(v3Feedback())
    const panel = document.getElementById(within(card).getByRole('button', { name: 'Scores, feedback and evidence' }).getAttribute('aria-controls')!)!
    // Hidden by an inline style that the print rule's !important overrides.
    expect(panel).toHaveStyle({ display: 'none' })
    expect(panel).toHaveClass('print:block!')
  })
})

describe('AnswerCard with rubric v3 feedback', () => {
  it('shows the red flag first, with its words, why it matters and what to do instead', async () => {
    const card = renderCard(v3Feedback())
    const flags = within(card).getByRole('group', { name: 'Red flag' })
    expect(within(flags).getByRole('heading', { level: 4, name: "Overriding the patient's decision" })).toBeInTheDocument()
    expect(within(flags).getByText(OVERRIDE_QUOTE).tagName).toBe('Q')
    expect(within(flags).getByText('Why it matters')).toBeInTheDocument()
    expect(within(flags).getByText('A capable adult may refuse care.')).toBeInTheDocument()
    expect(within(flags).getByText('What to do instead')).toBeInTheDocument()
    expect(within(flags).getByText(/respect an informed refusal/)).toBeInTheDocument()
    // Shown before anything is opened, ahead of the summary and the breakdown, and not announced as it renders.
    expect(flags).toBeVisible()
    await openDetails(card)
    const summary = within(card).getByText(/raises a red flag/)
    expect(flags.compareDocumentPosition(summary) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    expect(card.querySelector('[aria-live], [role="alert"]')).toBeNull()
  })

  it('counts several flags in the heading', () => {
    const base = v3Feedback()
    const card = renderCard(
      v3Feedback({ redFlags: [...base.redFlags, { key: 'deception', name: 'hiding the truth', quote: '', why: 'Honesty above all.', instead: 'Tell the patient.' }] }),
    )
    const flags = within(card).getByRole('group', { name: 'Red flags (2)' })
    expect(within(flags).getAllByRole('listitem')).toHaveLength(2)
    // A flag without words quotes nothing.
    expect(within(flags).getAllByText('You said')).toHaveLength(1)
  })

  it('breaks each section into criteria with levels, anchors and quotes; open when low or flagged', async () => {
    const card = renderCard(v3Feedback())
    await openDetails(card)
    const scoring = within(card).getByRole('group', { name: 'How this was scored' })
    const toggles = within(scoring).getAllByRole('button')
    expect(toggles.map((b) => b.textContent)).toEqual(['Content47', 'Clarity & structure72', 'Overall impression45'])
    expect(within(scoring).queryByText(/this question’s points/)).not.toBeInTheDocument()
    // The answer has a red flag: every section opens to show what drove the score.
    expect(toggles.every((b) => b.getAttribute('aria-expanded') === 'true')).toBe(true)
    const [content, structure, impression] = toggles.map((b) => document.getElementById(b.getAttribute('aria-controls')!)!) as [HTMLElement, HTMLElement, HTMLElement]
    expect(within(content).getByText('Judgment')).toBeInTheDocument()
    expect(within(content).getByText('Level 1 of 7')).toBeInTheDocument()
    expect(within(content).getByText('1/7')).toHaveAttribute('aria-hidden', 'true')
    expect(within(content).getByText(/treat as disqualifying, or no judgment/)).toBeInTheDocument()
    expect(within(content).getByText(OVERRIDE_QUOTE).tagName).toBe('Q')
    expect(within(content).getByText('Level 6 of 7')).toBeInTheDocument()
    // Supporting observations are listed apart, met or not in words.
    expect(within(structure).getByText('Not met:')).toBeInTheDocument()
    expect(within(structure).getByText('The ethical issue')).toBeInTheDocument()
    expect(within(impression).getByText(/12 s \(target 60-120 s\)/)).toBeInTheDocument()
    // Each section's button toggles it.
    await userEvent.click(toggles[0]!)
    expect(toggles[0]).toHaveAttribute('aria-expanded', 'false')
    expect(content).not.toBeVisible()
  })

  it('says that the question’s own points set most of the score, where it has them', async () => {
    const withPoints = v3Feedback()
    withPoints.evidence = [...withPoints.evidence, { section: 'content', criterion: 'Ask why she refuses', met: false, note: 'not in this answer', point: true }]
    const card = renderCard(withPoints)
    await openDetails(card)
    const scoring = within(card).getByRole('group', { name: 'How this was scored' })
    expect(within(scoring).getByText(/^Most of the score comes from this question’s points/)).toBeInTheDocument()
    expect(within(scoring).getByRole('heading', { name: 'This question’s points' })).toBeInTheDocument()
  })

  it('without a red flag opens only the sections that scored low', async () => {
    const card = renderCard(v3Feedback({ redFlags: [] }))
    expect(within(card).queryByRole('group', { name: /Red flag/ })).not.toBeInTheDocument()
    await openDetails(card)
    const toggles = within(within(card).getByRole('group', { name: 'How this was scored' })).getAllByRole('button')
    expect(toggles.map((b) => b.getAttribute('aria-expanded'))).toEqual(['true', 'false', 'true'])
  })

  it('names the competencies shown, in the contract’s order', async () => {
    const card = renderCard(v3Feedback())
    await openDetails(card)
    const tags = within(card).getByRole('group', { name: 'Competencies shown' })
    expect(within(tags).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Empathy & compassion', 'Critical thinking'])
  })
})

describe('AnswerCard with rubric v2 feedback', () => {
  it('renders as before: scores, summary and suggestions, no flags, breakdown or competencies', async () => {
    const card = renderCard(v2Feedback())
    expect(within(card).getByText('Score: 82')).toBeInTheDocument()
    expect(within(card).getByRole('group', { name: 'The change that would lift this score most' })).toHaveTextContent('Add the result.')
    await openDetails(card)
    expect(within(card).getByText('Content: 85')).toBeVisible()
    expect(within(card).getByText('A clear, specific answer.')).toBeVisible()
    expect(within(card).queryByText(/Red flag/)).not.toBeInTheDocument()
    expect(within(card).queryByText('How this was scored')).not.toBeInTheDocument()
    expect(within(card).queryByText('Competencies shown')).not.toBeInTheDocument()
  })

  it('tolerates stored feedback that predates flags and competencies altogether', () => {
    const old = v2Feedback() as Partial<Feedback>
    delete old.redFlags
    delete old.competencies
    const card = renderCard(old as Feedback)
    expect(within(card).getByText('Score: 82')).toBeInTheDocument()
    expect(within(card).queryByText(/Red flag/)).not.toBeInTheDocument()
  })
})

describe('words the speech engine may have misheard (issue 29 item 4)', () => {
  const heard = 'I want us to project the practice.'
  const parts = [
    { text: 'I want us to ' },
    { text: 'project', uncertain: true },
    { text: ' the ' },
    { text: 'practice', uncertain: true },
    { text: '.' },
  ]

  it('marks them with a dotted underline and words, not colour alone, explains the mark once, and asks to check them before the score', () => {
    const card = renderCard(v3Feedback({ redFlags: [] }), { transcript: heard, transcriptParts: parts, uncertainWords: 2, correctable: true })
    const transcript = within(card).getByRole('group', { name: 'Transcript' })
    const marks = transcript.querySelectorAll('mark:not([aria-hidden])')
    expect([...marks].map((m) => m.textContent)).toEqual(['project (may be misheard)', 'practice (may be misheard)'])
    for (const m of marks) expect(m.className).toContain('decoration-dotted')
    expect(within(transcript).getByText('A dotted underline marks a word we may have misheard.')).toBeVisible()
    const prompt = within(card).getByText('We may have misheard 2 words — check them, then score again.')
    expect(prompt).toBeVisible()
    // Before the score is trusted: above the change that would lift it.
    const lift = within(card).getByRole('group', { name: 'The change that would lift this score most' })
    expect(prompt.compareDocumentPosition(lift) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
  })

  it('says one word in the singular', () => {
    const card = renderCard(v3Feedback(), { transcript: heard, transcriptParts: parts.slice(0, 3).concat({ text: 'practice.' }), uncertainWords: 1, correctable: true })
    expect(within(card).getByText('We may have misheard 1 word — check it, then score again.')).toBeVisible()
  })

  it('leads from the keyboard straight into the correction, with the words still marked, and focus in the field', async () => {
    const card = renderCard(v3Feedback(), { transcript: heard, transcriptParts: parts, uncertainWords: 2, correctable: true })
    const check = within(card).getByRole('button', { name: 'Check the transcript' })
    check.focus()
    await userEvent.keyboard('{Enter}')
    const field = within(card).getByLabelText('Corrected transcript')
    expect(field).toHaveFocus()
    expect(field).toHaveValue(heard)
    expect(within(card).getAllByText('(may be misheard)')).toHaveLength(2)
    // The prompt has done its work while the student corrects.
    expect(within(card).queryByText(/We may have misheard/)).toBeNull()
  })

  it('keeps the marks where the answer cannot be corrected (a reviewer’s page), without asking to check them', () => {
    const card = renderCard(v3Feedback(), { transcript: heard, transcriptParts: parts, uncertainWords: 2 })
    expect(within(card).getAllByText('(may be misheard)')).toHaveLength(2)
    expect(within(card).getByText('A dotted underline marks a word we may have misheard.')).toBeVisible()
    expect(within(card).queryByText(/We may have misheard/)).toBeNull()
    expect(within(card).queryByRole('button', { name: 'Correct the transcript' })).toBeNull()
  })

  it('asks nothing of a transcript without such words, a typed answer or a saved copy', () => {
    const card = renderCard(v3Feedback(), { transcript: heard })
    expect(within(card).queryByText(/We may have misheard/)).toBeNull()
    expect(card.querySelector('mark')).toBeNull()
    expect(within(card).queryByText(/dotted underline/)).toBeNull()
  })

  it('shows content it could not judge as not judged, in the server’s words, not as a 0', async () => {
    const note = 'We could not hear enough of this answer to judge this: check the words we may have misheard in the transcript, then score it again.'
    const feedback = v3Feedback({
      redFlags: [],
      contentUnjudged: true,
      sectionScores: { overallImpression: 70, clarityStructure: 60, content: 0 },
      evidence: [
        { section: 'content', criterion: 'Answers the question', met: false, note, unjudged: 'too-uncertain' },
        { section: 'content', criterion: 'Judgment', met: false, note, unjudged: 'too-uncertain' },
        { section: 'clarityStructure', criterion: 'Structure for the question', met: false, level: 4, anchor: 'Some of the parts.' },
        { section: 'overallImpression', criterion: 'Delivery', met: true, level: 5, anchor: 'Clear delivery.' },
      ],
    })
    const card = renderCard(feedback, { transcript: heard, transcriptParts: parts, uncertainWords: 2 })
    await openDetails(card)
    expect(within(card).getByText('Content: not judged')).toBeVisible()
    expect(within(card).queryByText('Content: 0')).toBeNull()
    const scoring = within(card).getByRole('group', { name: 'How this was scored' })
    const content = within(scoring).getByRole('button', { name: /Content/ })
    expect(content).toHaveTextContent('Not judged')
    expect(content).toHaveAttribute('aria-expanded', 'true')
    expect(within(scoring).getByText(note)).toBeVisible()
    expect(within(scoring).getByText('Not judged: Answers the question, Judgment.')).toBeVisible()
  })

  it('shows fillers an engine cannot hear as not measured, not "0 — Met"', async () => {
    const note = 'Not measured: this speech engine does not reliably write down filled pauses like “um”.'
    const feedback = v3Feedback({
      redFlags: [],
      evidence: [
        { section: 'overallImpression', criterion: 'Delivery', met: true, level: 5, anchor: 'Clear delivery.' },
        { section: 'overallImpression', criterion: 'fillers', met: false, note, unjudged: 'not-measured' },
      ],
    })
    const metrics: AnswerMetrics = {
      durationSeconds: 65,
      wordsPerMinute: 140,
      wordCount: 150,
      fillerCount: 0,
      fillers: {},
      fillersPer100Words: 0,
      fillersPerMinute: 0,
      fillersSource: 'estimated',
      limitShare: 0.36,
      longestPauseSeconds: 1.2,
      pausesOver2s: 0,
      pausesMeasured: true,
    }
    const card = renderCard(feedback, { metrics })
    await openDetails(card)
    const figure = within(card).getByText('Fillers', { selector: 'dt' }).nextElementSibling
    expect(figure).toHaveTextContent('Not measured')
    expect(within(card).getAllByText(note)[0]).toBeVisible()
    const observation = within(card).getByText('Not measured:', { exact: false, selector: '.sr-only' })
    expect(observation.parentElement).toHaveTextContent(/fillers/i)
  })
})

describe('an answer whose content was not judged (issue 39 item 4)', () => {
  it('has no overall score: it shows its delivery and asks for the transcript to be corrected', () => {
    const feedback = v3Feedback({ redFlags: [], contentUnjudged: true, overallScore: undefined, sectionScores: { overallImpression: 70, clarityStructure: 60, content: 0 } })
    const metrics: AnswerMetrics = {
      durationSeconds: 65,
      wordsPerMinute: 140,
      wordCount: 150,
      fillerCount: 0,
      fillers: {},
      fillersPer100Words: 0,
      fillersPerMinute: 0,
      fillersSource: 'estimated',
      limitShare: 0.36,
      longestPauseSeconds: 1.2,
      pausesOver2s: 0,
      pausesMeasured: true,
    }
    const card = renderCard(feedback, { transcript: 'I want us to project the practice.', uncertainWords: 2, correctable: true, metrics })
    expect(within(card).queryByText(/^Score:/)).toBeNull()
    expect(within(card).getByText('Not scored')).toBeVisible()
    expect(within(card).getByText('Correct the transcript to score your content')).toBeVisible()
    // Never scored, so nothing to score "again".
    expect(within(card).getByText('We may have misheard 2 words — check them, then have it scored.')).toBeVisible()
    // Its delivery, without opening the details.
    expect(within(card).getByText('Words per minute', { selector: 'dt' })).toBeVisible()
    expect(within(card).queryByText('The change that would lift this score most')).toBeNull()
  })
})

describe('a perfect score (issue 39 item 6)', () => {
  it('is not offered a change that would lift it', () => {
    const card = renderCard(v3Feedback({ redFlags: [], overallScore: 100, suggestions: ['Name the patient’s feelings.'] }))
    expect(within(card).getByText('Score: 100')).toBeVisible()
    expect(within(card).queryByText('The change that would lift this score most')).toBeNull()
  })
})

describe('fillers (issue 39 items 4 and 6)', () => {
  const metrics = (fillerCount: number, fillersSource: AnswerMetrics['fillersSource']): AnswerMetrics => ({
    durationSeconds: 65,
    wordsPerMinute: 140,
    wordCount: 150,
    fillerCount,
    fillers: {},
    fillersPer100Words: 0,
    fillersPerMinute: 0,
    fillersSource,
    limitShare: 0.36,
    longestPauseSeconds: 1.2,
    pausesOver2s: 0,
    pausesMeasured: true,
  })
  it('gives no figure guessed from the words of an engine that drops hesitations, whatever it counted', async () => {
    const card = renderCard(v3Feedback({ redFlags: [] }), { metrics: metrics(2, 'estimated') })
    await openDetails(card)
    expect(within(card).getByText('Fillers', { selector: 'dt' }).nextElementSibling).toHaveTextContent(/^Not measured$/)
  })
  it('shows the hesitations heard as a count', async () => {
    const card = renderCard(v3Feedback({ redFlags: [] }), { metrics: metrics(1, 'engine') })
    await openDetails(card)
    expect(within(card).getByText('Fillers', { selector: 'dt' }).nextElementSibling).toHaveTextContent(/^1$/)
  })
})

describe('AnswerCard says whose words a spoken transcript holds, with their times', () => {
  const metrics = (source: AnswerMetrics['source']): AnswerMetrics => ({
    durationSeconds: 4,
    wordsPerMinute: 120,
    wordCount: 5,
    fillerCount: 1,
    fillers: { um: 1 },
    fillersPer100Words: 20,
    fillersPerMinute: 15,
    fillersSource: 'engine',
    limitShare: 0.02,
    longestPauseSeconds: 1.2,
    pausesOver2s: 0,
    pausesMeasured: true,
    source,
    wordConfidence: 'alignment',
    words: [
      { word: 'the', start: 0.4, end: 0.6, confidence: 0.9 },
      { word: 'patient', start: 0.7, end: 1.1, confidence: 0.9 },
      { word: 'um', start: 2.3, end: 2.6, confidence: 0.8 },
      { word: 'refused', start: 2.7, end: 3.1, confidence: 0.9 },
      { word: 'it', start: 3.2, end: 3.4, confidence: 0.9 },
    ],
  })

  it('names the browser’s aligned words and lists them at the times they were said, hesitations included', async () => {
    const card = renderCard(v3Feedback(), { transcript: 'the patient um refused it', metrics: metrics('aligned') })
    const transcript = within(card).getByRole('group', { name: 'Transcript' })
    expect(within(transcript).getByText(/^Your browser’s words, lined up with your recording/)).toBeVisible()
    await userEvent.click(within(transcript).getByRole('button', { name: 'Words with times' }))
    const lines = within(transcript).getAllByRole('listitem').map((li) => li.textContent)
    expect(lines).toEqual(['0:00the patient', '0:02um refused it'])
  })

  it('tells the student when their browser’s words were set aside for the server’s', () => {
    const card = renderCard(v3Feedback(), { transcript: 'the patient refused it', metrics: metrics('recognisedInstead') })
    expect(within(card).getByText(/could not be lined up with your recording, so Whitecoat’s server transcribed it instead/)).toBeVisible()
  })

  it('says nothing of the source or times once the student has corrected the words', () => {
    const card = renderCard(v3Feedback(), {
      transcript: 'the patient refused it',
      metrics: metrics('aligned'),
      correction: { originalTranscript: 'the patient um refused it', correctedAt: '2026-11-28T06:00:00Z' },
    })
    expect(within(card).queryByText(/Your browser’s words/)).toBeNull()
    expect(within(card).queryByRole('button', { name: 'Words with times' })).toBeNull()
  })
})

describe('AnswerCard of an answer with nothing heard in it', () => {
  it('says it is not scored rather than "Done"', () => {
    const card = renderCard(v3Feedback(), { feedback: undefined, meaningful: false, transcript: '' })
    expect(within(card).getByText('Not scored')).toBeVisible()
    expect(within(card).queryByText('Done')).toBeNull()
    expect(within(card).getByText('No meaningful response detected. Skipping feedback.')).toBeVisible()
  })
})

describe('presence on camera (issue 42)', () => {
  const watched: NonNullable<Answer['videoDelivery']> = {
    status: 'measured',
    watchedSeconds: 60,
    frames: 180,
    faceSeconds: 58,
    eyeContactSeconds: 29,
    darkSeconds: 0,
    framing: { tooSmallSeconds: 0, tooLargeSeconds: 0, offCenterSeconds: 5.8, cutOffSeconds: 0 },
    headMovement: 4.4,
    looksAway: [
      { atSeconds: 12, seconds: 3, toward: 'out-of-frame' },
      { atSeconds: 41, seconds: 9.2, toward: 'down' },
    ],
  }
  it('shows what the device measured as figures and the long looks away with their times', async () => {
    const card = renderCard(v3Feedback({ redFlags: [] }), { videoDelivery: watched })
    await openDetails(card)
    const onCamera = within(card).getByRole('region', { name: 'On camera' })
    const figure = (term: string) => within(onCamera).getByText(term, { selector: 'dt' }).nextElementSibling
    expect(figure('Eye contact')).toHaveTextContent(/^50%$/)
    expect(figure('In the frame')).toHaveTextContent(/^97%$/)
    expect(figure('Well framed')).toHaveTextContent(/^90%$/)
    expect(figure('Head movement')).toHaveTextContent(/^4° per s$/)
    expect(within(onCamera).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Out of the frame from 0:12 for 3 s', 'Looked down from 0:41 for 9 s'])
    expect(within(onCamera).getByText('Measured on your device; no picture was sent.')).toBeVisible()
  })
  it('says in the server’s words why a measurement cannot be judged, and shows no figure', async () => {
    const notMeasured = 'Not measured: the picture was too dark to see your face for most of the answer.'
    const card = renderCard(v3Feedback({ redFlags: [] }), { videoDelivery: { ...watched, darkSeconds: 40, faceSeconds: 10, eyeContactSeconds: 5 }, videoNotMeasured: notMeasured })
    await openDetails(card)
    const onCamera = within(card).getByRole('region', { name: 'On camera' })
    expect(within(onCamera).getByText(notMeasured)).toBeVisible()
    expect(within(onCamera).queryByText('Eye contact')).not.toBeInTheDocument()
  })
  it('leaves an audio answer as it was: nothing on camera', async () => {
    const card = renderCard(v3Feedback({ redFlags: [] }))
    await openDetails(card)
    expect(within(card).queryByRole('region', { name: 'On camera' })).not.toBeInTheDocument()
  })
})
