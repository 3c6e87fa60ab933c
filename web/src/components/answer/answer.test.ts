import { describe, expect, it } from 'vitest'
import { biggestLift, legacyText, sourceNote, timedLines, type Answer, type AnswerMetrics, type Word } from './answer'

describe('answer', () => {
  it('shows legacy HTML feedback as its text only', () => {
    expect(legacyText('<p>Good <b>eye contact</b></p><script>alert(1)</script>')).toBe('Good eye contactalert(1)')
    expect(legacyText('Plain & simple')).toBe('Plain & simple')
  })

  it('takes the first suggestion as the change that would lift the score most', () => {
    const feedback = { overallScore: 62, suggestions: ['Answer the question asked.', 'Fewer fillers.'] } as NonNullable<Answer['feedback']>
    expect(biggestLift(feedback)).toBe('Answer the question asked.')
    expect(biggestLift({ ...feedback, suggestions: [] })).toBeNull()
  })

  it('starts a line of the timed transcript at each pause, and every twelve words without one', () => {
    const word = (w: string, start: number): Word => ({ word: w, start, end: start + 0.3, confidence: null })
    const words = [word('I', 0.5), word('want', 0.9), word('um', 2.1), word('to', 2.5), ...Array.from({ length: 13 }, (_, i) => word('help', 3 + i * 0.4))]
    expect(timedLines(words)).toEqual([
      { start: 0.5, text: 'I want' },
      { start: 2.1, text: `um to ${Array(10).fill('help').join(' ')}` },
      { start: 3 + 10 * 0.4, text: 'help help help' },
    ])
    expect(timedLines([])).toEqual([])
  })

  it('says whose words a transcript holds only when they are not the server’s own', () => {
    const metrics = (source?: AnswerMetrics['source']) => ({ source }) as AnswerMetrics
    expect(sourceNote(metrics('aligned'))).toMatch(/^Your browser’s words, lined up with your recording/)
    expect(sourceNote(metrics('recognisedInstead'))).toMatch(/transcribed it instead/)
    expect(sourceNote(metrics('recognised'))).toBeNull()
    expect(sourceNote(metrics())).toBeNull()
    expect(sourceNote(undefined)).toBeNull()
  })
})
