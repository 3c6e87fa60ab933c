import { describe, expect, it } from 'vitest'
import { biggestLift, legacyText, type Answer } from './answer'

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
})
