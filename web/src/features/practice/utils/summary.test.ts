import { describe, expect, it } from 'vitest'
import type { SavedSession } from '../api/get-saved-session'
import { biggestLift, defaultSessionTitle, entriesFromSaved, formatImprovement, legacyText, orderForSummary, unscoredReason, type ResultEntry } from './summary'

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

  it('defaults the title to "Session {date/time}" in the given locale', () => {
    // ICU versions differ in the space before PM.
    expect(defaultSessionTitle(new Date(2025, 8, 7, 14, 5), 'en-US')).toMatch(/^Session Sep 7, 2025, 2:05\sPM$/)
  })

  it('shows legacy HTML feedback as its text only', () => {
    expect(legacyText('<p>Good <b>eye contact</b></p><script>alert(1)</script>')).toBe('Good eye contactalert(1)')
    expect(legacyText('Plain & simple')).toBe('Plain & simple')
  })

  it('reads saved items from their status and meaningful flag', () => {
    const saved = {
      items: [
        { question: 'A', tip: '', status: 'skipped', meaningful: null, skipped: true, transcript: '', feedback: null },
        { question: 'B', tip: '', status: 'failed', meaningful: null, skipped: false, transcript: '', feedback: null },
        { question: 'C', tip: '', status: 'done', meaningful: false, skipped: false, transcript: 'Thank you.', feedback: null },
        { question: 'D', tip: '', status: 'done', meaningful: true, skipped: false, transcript: 'I care.', feedback: null, legacyFeedback: '<p>Nice</p>' },
      ],
    } as unknown as SavedSession
    expect(entriesFromSaved(saved).map((e) => [e.status, e.meaningful, e.transcript])).toEqual([
      ['skipped', null, null],
      ['failed', null, ''],
      ['done', false, 'Thank you.'],
      ['done', true, 'I care.'],
    ])
  })

  it('reads legacy items (no status): an answer without feedback had nothing meaningful', () => {
    const saved = {
      items: [
        { question: 'C', tip: '', status: '', meaningful: null, skipped: false, transcript: 'Thank you.', feedback: null },
        { question: 'D', tip: '', status: '', meaningful: null, skipped: false, transcript: 'I care.', feedback: null, legacyFeedback: 'Nice' },
      ],
    } as unknown as SavedSession
    expect(entriesFromSaved(saved).map((e) => [e.status, e.meaningful])).toEqual([
      ['done', false],
      ['done', true],
    ])
  })

  it('says why no answer was scored, and that the session uses no free session', () => {
    const e = (status: ResultEntry['status'], meaningful: boolean | null, kind: ResultEntry['kind'] = 'spoken') => ({ status, meaningful, kind })
    const freeSession = /It is not counted and does not use a free session\.$/
    const silent = unscoredReason([e('done', false)])
    expect(silent).toMatch(/^No words were recognized in your answers: check that your microphone is on and not muted/)
    expect(silent).toMatch(freeSession)
    expect(unscoredReason([e('done', false, 'typed')])).toMatch(/^Your answers had no words in them to score\./)
    expect(unscoredReason([e('failed', null), e('skipped', null)])).toMatch(/^Your answers could not be processed\./)
    expect(unscoredReason([e('skipped', null)])).toMatch(/^Every question was skipped\./)
    expect(unscoredReason([e('done', false), e('failed', null)])).toMatch(/^Each answer was silent, could not be processed or was skipped\./)
  })

  it('takes the first suggestion as the change that would lift the score most', () => {
    const feedback = { suggestions: ['Answer the question asked.', 'Fewer fillers.'] } as NonNullable<ResultEntry['feedback']>
    expect(biggestLift(feedback)).toBe('Answer the question asked.')
    expect(biggestLift({ ...feedback, suggestions: [] })).toBeNull()
  })
})
