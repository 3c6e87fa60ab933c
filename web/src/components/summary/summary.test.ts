import { describe, expect, it } from 'vitest'
import type { Answer } from '@/components/answer/answer'
import { formatImprovement, orderForSummary, unscoredReason } from './summary'

describe('summary', () => {
  it('keeps the asked order with skipped questions last', () => {
    const items = [
      { status: 'skipped', q: 1 },
      { status: 'done', q: 2 },
      { status: 'skipped', q: 3 },
      { status: 'failed', q: 4 },
    ]
    expect(orderForSummary(items).map((i) => i.q)).toEqual([2, 4, 1, 3])
  })

  it('writes the improvement with its sign', () => {
    expect(formatImprovement(6)).toBe('+6 vs last session')
    expect(formatImprovement(-3)).toBe('-3 vs last session')
    expect(formatImprovement(0)).toBe('0 vs last session')
  })

  it('says why no answer was scored, and that the session uses no free session', () => {
    const e = (status: Answer['status'], meaningful: boolean | null, kind: Answer['kind'] = 'spoken') => ({ status, meaningful, kind })
    const freeSession = /It is not counted and does not use a free session\.$/
    const silent = unscoredReason([e('done', false)])
    expect(silent).toMatch(/^No words were recognized in your answers: check that your microphone is on and not muted/)
    expect(silent).toMatch(freeSession)
    expect(unscoredReason([e('done', false, 'typed')])).toMatch(/^Your answers had no words in them to score\./)
    expect(unscoredReason([e('failed', null), e('skipped', null)])).toMatch(/^Your answers could not be processed\./)
    expect(unscoredReason([e('skipped', null)])).toMatch(/^Every question was skipped\./)
    expect(unscoredReason([e('done', false), e('failed', null)])).toMatch(/^Each answer was silent, could not be processed or was skipped\./)
  })

  it('sends the student to the transcript when an answer was heard but its content not judged', () => {
    // Issue 39 item 4: heard, with delivery feedback, but too much of it
    // may be misheard to judge. Not "silent or could not be processed",
    // and it did use a free session (the server counts its feedback).
    const unjudged = { status: 'done' as const, meaningful: true, kind: 'spoken' as const, feedback: { overallScore: null } }
    const reason = unscoredReason([unjudged, { status: 'skipped', meaningful: null, kind: 'spoken', feedback: null }])
    expect(reason).toBe('We may have misheard too much of your answer to score its content. Correct the transcript below to score it.')
  })
})
