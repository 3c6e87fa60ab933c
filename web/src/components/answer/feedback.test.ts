import { describe, expect, it } from 'vitest'
import { schemaLimits } from '@/api/limits'
import { COMPETENCY_LABEL } from '@/lib/competencies'
import { capitalize, competencies, MAX_LEVEL, scoringBreakdown, type Feedback } from './feedback'

function feedback(overrides: Partial<Feedback> = {}): Feedback {
  return {
    overallScore: 75,
    sectionScores: { overallImpression: 80, clarityStructure: 65, content: 75 },
    summary: '',
    suggestions: [],
    rubricVersion: 'v3',
    engine: 'rubric',
    evidence: [],
    redFlags: [],
    competencies: [],
    fallback: false,
    ...overrides,
  }
}

describe('feedback', () => {
  it('takes the scale and the competencies from the contract', () => {
    expect(MAX_LEVEL).toBe(schemaLimits.Evidence.level.maximum)
    expect(Object.keys(COMPETENCY_LABEL).sort()).toEqual([...schemaLimits.Feedback.competencies.items.enum].sort())
  })

  it('orders competencies as the contract lists them, each once', () => {
    expect(competencies(feedback({ competencies: ['critical-thinking', 'teamwork', 'ethical-responsibility', 'teamwork'] }))).toEqual([
      'ethical-responsibility',
      'teamwork',
      'critical-thinking',
    ])
  })

  it('has no breakdown for feedback without levels (rubric v1/v2)', () => {
    expect(scoringBreakdown(feedback({ rubricVersion: 'v2', evidence: [{ section: 'content', criterion: 'specific examples', met: true }] }))).toBeNull()
  })

  it('splits each section into scored criteria and observations, opening the low ones', () => {
    const sections = scoringBreakdown(
      feedback({
        evidence: [
          { section: 'clarityStructure', criterion: 'Flow', met: false, level: 3 },
          { section: 'clarityStructure', criterion: 'the options', met: false, level: 0 },
          { section: 'content', criterion: 'Judgment', met: true, level: 6 },
          { section: 'elsewhere', criterion: 'ignored', met: true, level: 4 },
        ],
      }),
    )!
    expect(sections.map((s) => [s.label, s.score, s.criteria.map((c) => c.criterion), s.observations.map((c) => c.criterion), s.open])).toEqual([
      ['Content', 75, ['Judgment'], [], false],
      ['Clarity & structure', 65, ['Flow'], ['the options'], true],
      ['Overall impression', 80, [], [], false],
    ])
  })

  it('lists the question’s own points apart from the other observations', () => {
    const [content] = scoringBreakdown(
      feedback({
        evidence: [
          { section: 'content', criterion: 'Judgment', met: true, level: 6 },
          { section: 'content', criterion: 'Ask why she refuses', met: true, quote: 'I would ask her why', point: true },
          { section: 'content', criterion: 'Document the discussion', met: false, note: 'not in this answer', point: true },
          { section: 'content', criterion: 'specific examples', met: true },
        ],
      }),
    )!
    expect(content!.points.map((e) => [e.criterion, e.met])).toEqual([
      ['Ask why she refuses', true],
      ['Document the discussion', false],
    ])
    expect(content!.observations.map((e) => e.criterion)).toEqual(['specific examples'])
  })

  it('opens every section when the answer raised a red flag', () => {
    const sections = scoringBreakdown(
      feedback({
        evidence: [{ section: 'content', criterion: 'Judgment', met: false, level: 1 }],
        redFlags: [{ key: 'blame', name: 'blaming others', quote: '', why: '', instead: '' }],
      }),
    )!
    expect(sections.every((s) => s.open)).toBe(true)
  })

  it('capitalizes the first letter only', () => {
    expect(capitalize("overriding the patient's decision")).toBe("Overriding the patient's decision")
    expect(capitalize('')).toBe('')
  })
})
