import { QueryClientProvider } from '@tanstack/react-query'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { testQueryClient } from '@/test/render'
import type { Feedback } from '../utils/feedback'
import type { ResultEntry } from '../utils/summary'
import { ResultCard } from './result-card'

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
        criterion: 'Judgement',
        met: false,
        quote: OVERRIDE_QUOTE,
        note: 'red flag',
        level: 1,
        anchor: 'Shows conduct an interviewer would treat as disqualifying, or no judgement at all.',
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

function entry(feedback: Feedback): ResultEntry {
  return {
    key: 'i1',
    itemId: 'i1',
    kind: 'spoken',
    scenario: '',
    question: 'An adult refuses a transfusion. What do you do?',
    alsoAsked: [],
    tip: '',
    status: 'done',
    transcript: 'the patient refused the transfusion',
    metrics: null,
    feedback,
    legacyFeedback: '',
    meaningful: true,
    error: '',
    canRetry: false,
    correction: null,
  }
}

function renderCard(feedback: Feedback) {
  render(
    <QueryClientProvider client={testQueryClient()}>
      <ResultCard entry={entry(feedback)} number={1} sessionId="s1" />
    </QueryClientProvider>,
  )
  return screen.getByRole('article')
}

describe('ResultCard with rubric v3 feedback', () => {
  it('shows the red flag first, with its words, why it matters and what to do instead', () => {
    const card = renderCard(v3Feedback())
    const flags = within(card).getByRole('region', { name: 'Red flag' })
    expect(within(flags).getByRole('heading', { level: 4, name: "Overriding the patient's decision" })).toBeInTheDocument()
    expect(within(flags).getByText(OVERRIDE_QUOTE).tagName).toBe('Q')
    expect(within(flags).getByText('Why it matters')).toBeInTheDocument()
    expect(within(flags).getByText('A capable adult may refuse care.')).toBeInTheDocument()
    expect(within(flags).getByText('What to do instead')).toBeInTheDocument()
    expect(within(flags).getByText(/respect an informed refusal/)).toBeInTheDocument()
    // Before the summary and the breakdown, and not announced as it renders.
    const summary = within(card).getByText(/raises a red flag/)
    expect(flags.compareDocumentPosition(summary) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    expect(card.querySelector('[aria-live], [role="alert"]')).toBeNull()
  })

  it('counts several flags in the heading', () => {
    const base = v3Feedback()
    const card = renderCard(
      v3Feedback({ redFlags: [...base.redFlags, { key: 'deception', name: 'hiding the truth', quote: '', why: 'Honesty above all.', instead: 'Tell the patient.' }] }),
    )
    const flags = within(card).getByRole('region', { name: 'Red flags (2)' })
    expect(within(flags).getAllByRole('listitem')).toHaveLength(2)
    // A flag without words quotes nothing.
    expect(within(flags).getAllByText('You said')).toHaveLength(1)
  })

  it('breaks each section into criteria with levels, anchors and quotes; open when low or flagged', async () => {
    const card = renderCard(v3Feedback())
    const scoring = within(card).getByRole('region', { name: 'How this was scored' })
    const sections = scoring.querySelectorAll('details')
    expect(Array.from(sections).map((d) => d.querySelector('summary')?.textContent)).toEqual(['Content47', 'Clarity & structure72', 'Overall impression45'])
    // The answer has a red flag: every section opens to show what drove the score.
    expect(Array.from(sections).every((d) => d.open)).toBe(true)
    const content = sections[0]!
    expect(within(content).getByText('Judgement')).toBeInTheDocument()
    expect(within(content).getByText('Level 1 of 7')).toBeInTheDocument()
    expect(within(content).getByText('1/7')).toHaveAttribute('aria-hidden', 'true')
    expect(within(content).getByText(/treat as disqualifying, or no judgement/)).toBeInTheDocument()
    expect(within(content).getByText(OVERRIDE_QUOTE).tagName).toBe('Q')
    expect(within(content).getByText('Level 6 of 7')).toBeInTheDocument()
    // Supporting observations are listed apart, met or not in words.
    const structure = sections[1]!
    expect(within(structure).getByText('Not met:')).toBeInTheDocument()
    expect(within(structure).getByText('The ethical issue')).toBeInTheDocument()
    expect(within(sections[2]!).getByText(/12 s \(target 60-120 s\)/)).toBeInTheDocument()
    // The disclosure is a native one: its summary toggles it.
    await userEvent.click(content.querySelector('summary')!)
    expect(content.open).toBe(false)
  })

  it('without a red flag opens only the sections that scored low', () => {
    const card = renderCard(v3Feedback({ redFlags: [] }))
    expect(within(card).queryByRole('region', { name: /Red flag/ })).not.toBeInTheDocument()
    const sections = Array.from(card.querySelectorAll('details'))
    expect(sections.map((d) => d.open)).toEqual([true, false, true])
  })

  it('names the competencies shown, in the contract’s order', () => {
    const card = renderCard(v3Feedback())
    const tags = within(card).getByRole('region', { name: 'Competencies shown' })
    expect(within(tags).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Empathy & compassion', 'Critical thinking'])
  })
})

describe('ResultCard with rubric v2 feedback', () => {
  it('renders as before: scores, summary and suggestions, no flags, breakdown or competencies', () => {
    const card = renderCard(v2Feedback())
    expect(within(card).getByText('Score: 82')).toBeInTheDocument()
    expect(within(card).getByText('Content: 85')).toBeInTheDocument()
    expect(within(card).getByText('A clear, specific answer.')).toBeInTheDocument()
    expect(within(card).getByRole('heading', { name: 'Suggestions' })).toBeInTheDocument()
    expect(within(card).getByText('Add the result.')).toBeInTheDocument()
    expect(within(card).queryByText(/Red flag/)).not.toBeInTheDocument()
    expect(within(card).queryByText('How this was scored')).not.toBeInTheDocument()
    expect(within(card).queryByText('Competencies shown')).not.toBeInTheDocument()
    expect(card.querySelector('details')).toBeNull()
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
